import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { Type } from '@sinclair/typebox';
import { createLogger } from '@hangar/logger';
import { errorHandler } from '../http/error-handler';
import { idParam, operation, textParam } from './declare';
import { mountOperations } from './mount';

/** The route a declaration mounts: ids read, bodies checked, other operations' names stepped aside for. */
describe('a declared operation mounted on express', () => {
  const declared = operation({
    method: 'put',
    path: '/api/things/{id}',
    operationId: 'updateThing',
    tag: 'Things',
    summary: 'Update a thing',
    // No token read: the test needs no users service.
    scopes: null,
    params: { id: idParam('Thing id', new Set(['upload'])) },
    body: { fields: { name: Type.String() } },
    responses: {},
    async handle({ params, body, res }) {
      res.json({ id: params.id, name: body.name ?? null });
    },
  });
  // Who calls, settled three ways: by the handler, by a token when one is sent, or by the token check.
  const byHandler = operation({
    method: 'get',
    path: '/api/teardowns/{name}',
    operationId: 'getByName',
    tag: 'Things',
    summary: 'A thing by its name',
    scopes: ['read'],
    caller: 'handler',
    params: { name: textParam('Its name') },
    responses: {},
    async handle({ params, req, res }) {
      res.json({ name: params.name, user: req.user?.id ?? null });
    },
  });
  const tokenIfSent = operation({ ...byHandler, path: '/api/optional/{name}', operationId: 'optional', caller: 'optional' });
  const tokenNeeded = operation({ ...byHandler, path: '/api/needed/{name}', operationId: 'needed', caller: undefined });
  const logger = createLogger({ service: 'mount-test', level: 'fatal', destination: new Writable({ write: (_c, _e, d) => d() }) });
  const app = express();
  app.use(mountOperations([declared, byHandler, tokenIfSent, tokenNeeded], { clients: { users: {} } as never, system: {} as never, files: {} as never, install: {} as never }, { maxBodyBytes: 1024 }));
  app.use((_req, res) => res.status(404).json({ error: 'Not found' }));
  app.use(errorHandler(logger));
  let base = '';
  const server = app.listen(0, '127.0.0.1');
  beforeAll(async () => {
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());
  const put = async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };

  it('when the id and the body are right, then the handler gets the id as a number and the declared fields', async () => {
    expect(await put('/api/things/7', { name: 'beta', other: 1 })).toEqual({ status: 200, body: { id: 7, name: 'beta' } });
  });

  it('when the id is not one, then 422 naming it, before the handler', async () => {
    expect(await put('/api/things/seven', { name: 'beta' })).toMatchObject({ status: 422, body: { entry: { id: ['must be a positive integer'] } } });
  });

  it('when a field has the wrong type, then 422 naming it, before the handler', async () => {
    expect(await put('/api/things/7', { name: ['beta'] })).toMatchObject({ status: 422, body: { entry: { name: ['must be a string'] } } });
  });

  it("when the path names another operation's place, then the route steps aside (404 here), not 422", async () => {
    expect(await put('/api/things/upload', {})).toEqual({ status: 404, body: { error: 'Not found' } });
  });

  it('when a path parameter is text, then the handler gets it as sent, decoded, whatever it looks like', async () => {
    expect(await (await fetch(`${base}/api/teardowns/x%20y-1`)).json()).toEqual({ name: 'x y-1', user: null });
  });

  it('when the handler reads the caller itself, then no token is asked for before it; when a token is optional, none sent is no refusal', async () => {
    expect((await fetch(`${base}/api/teardowns/a`)).status).toBe(200);
    expect((await fetch(`${base}/api/optional/a`)).status).toBe(200);
  });

  it('when an operation with scopes says nothing of its caller, then a request without a token is refused (401) before the handler', async () => {
    const res = await fetch(`${base}/api/needed/a`);
    expect({ status: res.status, body: await res.json() }).toMatchObject({ status: 401, body: { error: expect.stringMatching(/token/i) } });
  });
});
