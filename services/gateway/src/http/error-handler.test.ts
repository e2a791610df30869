import { Writable } from 'node:stream';
import express from 'express';
import { InvalidArgument, Unavailable, withCause } from '@hangar/errors';
import { createLogger } from '@hangar/logger';
import { errorHandler } from './error-handler';

/** The gateway's edge of the error table: what the client gets, and what the operator's log keeps. */
describe('errorHandler', () => {
  const logged: string[] = [];
  const logger = createLogger({ service: 'gateway', destination: new Writable({ write: (chunk, _enc, done) => (logged.push(String(chunk)), done()) }) });
  let baseUrl = '';
  let close: () => void;

  beforeAll(async () => {
    const app = express();
    app.get('/down', () => {
      const cause = Object.assign(new Error('/hangar.releases.ReleasesService/CreateRelease DEADLINE_EXCEEDED: Deadline exceeded'), { code: 4 });
      throw withCause(new Unavailable('A service is unavailable, try again shortly'), cause);
    });
    app.get('/bug', () => {
      throw Object.assign(new TypeError('The "data" argument must be of type string. Received an instance of Array'), { body: JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`), password: 'caller-secret' });
    });
    app.get('/refused', () => {
      throw InvalidArgument.field('name', "can't be blank");
    });
    app.use(errorHandler(logger));
    await new Promise<void>((resolve) => {
      const server = app.listen(0, '127.0.0.1', () => resolve());
      close = () => server.close();
      server.on('listening', () => (baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`));
    });
  });

  afterAll(() => close());
  beforeEach(() => logged.splice(0));

  it('when a dependency fails, then the client gets a generic 503 and the log says which call failed and how', async () => {
    const res = await fetch(`${baseUrl}/down`);
    expect(res.status).toBe(503);
    // A client (or a load balancer) is told when to try again.
    expect(res.headers.get('retry-after')).toBe('5');
    const body = await res.text();
    expect(JSON.parse(body)).toEqual({ error: 'A service is unavailable, try again shortly' });
    expect(body).not.toContain('CreateRelease');
    const line = JSON.parse(logged.join(''));
    expect(line).toMatchObject({ level: 'warn', method: 'GET', path: '/down', status: 503 });
    expect(line.err.message).toContain('ReleasesService/CreateRelease DEADLINE_EXCEEDED');
  });

  it('when a bug throws an error carrying the caller\'s input, then a generic 500, and the log keeps its type, message and stack but not what it carries', async () => {
    const res = await fetch(`${baseUrl}/bug`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'Internal error' });
    const line = JSON.parse(logged.join(''));
    expect(line).toMatchObject({ level: 'error', msg: 'unhandled error', error: { type: 'TypeError', message: expect.stringContaining('Received an instance of Array') } });
    expect(line.error.stack).toContain('TypeError');
    expect(logged.join('')).not.toMatch(/caller-secret|\[\[\[/);
  });

  it('when the request itself is refused, then it is answered and not logged', async () => {
    const res = await fetch(`${baseUrl}/refused`);
    expect(res.status).toBe(422);
    expect(res.headers.get('retry-after')).toBeNull();
    expect(logged).toEqual([]);
  });
});
