import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from './net';
import { RoundRobinProxy, startRoundRobinProxy } from './round-robin-proxy';

/** Real HTTP servers behind the launcher's proxy, each saying who it is and what it received. */
describe('the round-robin proxy in front of several gateways', () => {
  const servers: http.Server[] = [];
  let proxy: RoundRobinProxy;
  let deadTarget: string;

  async function gateway(name: string): Promise<string> {
    const server = http.createServer((req, res) => {
      if (req.url === '/refuse-early') {
        // Answers before reading the body, as the gateway refuses an upload over the limit,
        // then reads and drops the rest (the gateway's lingering close, streamed-upload.ts).
        res.writeHead(413, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'too large' }));
        req.resume();
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.setHeader('set-cookie', ['a=1', 'b=2']);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ name, host: req.headers.host, forwardedFor: req.headers['x-forwarded-for'], forwardedHost: req.headers['x-forwarded-host'], forwardedProto: req.headers['x-forwarded-proto'], body: Buffer.concat(chunks).toString(), method: req.method }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  beforeAll(async () => {
    deadTarget = `http://127.0.0.1:${await freePort()}`;
    proxy = await startRoundRobinProxy({ host: '127.0.0.1', port: 0, targets: [await gateway('first'), deadTarget, await gateway('second')] });
  });

  afterAll(async () => {
    await proxy.close();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  const url = (p: string) => `http://127.0.0.1:${proxy.port}${p}`;

  it('when requests come in, then they go to the gateways in turn, past the one that refuses connections, with every body and answer whole', async () => {
    const names: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(url(`/echo?i=${i}`), { method: 'POST', body: `body ${i}`, headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(res.status).toBe(200);
      expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
      const body = (await res.json()) as { name: string; host: string; forwardedFor: string; body: string };
      // The client (on loopback, not a trusted proxy here) cannot name another address: its X-Forwarded-For is replaced.
      expect(body).toMatchObject({ host: `127.0.0.1:${proxy.port}`, forwardedFor: '127.0.0.1', body: `body ${i}` });
      names.push(body.name);
    }
    expect(names.filter((n) => n === 'first').length).toBeGreaterThanOrEqual(2);
    expect(names.filter((n) => n === 'second').length).toBeGreaterThanOrEqual(2);
  });

  it('when a gateway answers before the body has arrived, then the client gets that answer, sends its whole body without a broken pipe, and its next requests are answered', async () => {
    for (let i = 0; i < 3; i++) {
      const outcome = await new Promise<{ status?: number; error?: string; connection?: string }>((resolve) => {
        const seen: { status?: number; error?: string; connection?: string } = {};
        let pending = 2;
        const done = () => --pending === 0 && resolve(seen);
        const req = http.request(url('/refuse-early'), { method: 'POST', headers: { 'content-length': String(8 * 1024 * 1024) } });
        req.on('response', (res) => {
          seen.status = res.statusCode;
          seen.connection = res.headers.connection;
          res.resume();
          done();
        });
        req.on('error', (err) => {
          seen.error = err.message;
          resolve(seen);
        });
        req.on('finish', done);
        const chunk = Buffer.alloc(64 * 1024);
        let sent = 0;
        const write = () => {
          while (sent < 128 && !req.destroyed) {
            sent += 1;
            if (!req.write(chunk)) return void req.once('drain', write);
          }
          req.end();
        };
        write();
      });
      expect(outcome).toEqual({ status: 413, connection: 'close' });
      const next = await fetch(url('/echo'), { method: 'POST', body: 'after', signal: AbortSignal.timeout(5_000) });
      expect(next.status).toBe(200);
      await next.arrayBuffer();
    }
  });

  it('when no gateway accepts the connection, then the client gets a 503 in the error shape', async () => {
    const lonely = await startRoundRobinProxy({ host: '127.0.0.1', port: 0, targets: [deadTarget] });
    try {
      const res = await fetch(`http://127.0.0.1:${lonely.port}/api/health`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: expect.any(String) });
    } finally {
      await lonely.close();
    }
  });

  it('when a client that is no trusted proxy sends X-Forwarded-*, then the gateway gets only the client address; from a trusted proxy they are passed on with the client appended', async () => {
    const target = await gateway('only');
    const headers = { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
    const edge = await startRoundRobinProxy({ host: '127.0.0.1', port: 0, targets: [target] });
    const behindProxy = await startRoundRobinProxy({ host: '127.0.0.1', port: 0, targets: [target], trustedProxies: '10.0.0.0/8, loopback' });
    try {
      const untrusted = (await (await fetch(`http://127.0.0.1:${edge.port}/`, { headers })).json()) as Record<string, unknown>;
      expect(untrusted).toMatchObject({ forwardedFor: '127.0.0.1', host: `127.0.0.1:${edge.port}` });
      expect(untrusted.forwardedHost).toBeUndefined();
      expect(untrusted.forwardedProto).toBeUndefined();
      const trusted = (await (await fetch(`http://127.0.0.1:${behindProxy.port}/`, { headers })).json()) as Record<string, unknown>;
      expect(trusted).toMatchObject({ forwardedFor: '203.0.113.7, 127.0.0.1', forwardedHost: 'evil.example', forwardedProto: 'https' });
    } finally {
      await edge.close();
      await behindProxy.close();
    }
  });
});
