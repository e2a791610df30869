import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, freePort } from '@hangar/infra';

/**
 * `npm run up` with a port it needs already taken: it says so at once — which port, whose, the
 * variable that moves it and a free one to move it to — and exits 1 having started nothing,
 * instead of restarting the gateway with backoff for a minute while the EADDRINUSE scrolls past.
 */
describe('the launcher when a port it needs is not free', () => {
  let dataDir: string;
  const holders: net.Server[] = [];

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-e2e-ports-'));
  });

  afterEach(async () => {
    await Promise.all(holders.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Another program's server on a port, as a second `npm run up` or any web server would hold it. */
  async function holdPort(): Promise<number> {
    const port = await freePort();
    const server = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    holders.push(server);
    return port;
  }

  /** `npm run up` (scripts/up.mjs; the e2e setup has built it) until it exits: its code, output and time taken. */
  function runLauncher(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string; ms: number }> {
    const started = Date.now();
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'scripts', 'up.mjs')], {
      cwd: REPO_ROOT,
      env: { ...process.env, HANGAR_DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    // A launcher that did start is stopped as Ctrl-C stops it, so nothing it started outlives the test.
    const guard = setTimeout(() => child.kill('SIGINT'), 20_000);
    return new Promise((resolve) =>
      child.once('close', (code) => {
        clearTimeout(guard);
        resolve({ code, output, ms: Date.now() - started });
      }),
    );
  }

  it("when HANGAR_PORT is held by another program, then it exits 1 at once naming the port and the variable, with a free port to use, and starts nothing", async () => {
    const port = await holdPort();
    const run = await runLauncher({ HANGAR_PORT: String(port) });
    expect(run.code).toBe(1);
    expect(run.output).toContain(`port ${port} on 127.0.0.1, for the gateway (HANGAR_PORT), is already in use by another program`);
    expect(run.output).toMatch(new RegExp(`\`HANGAR_PORT=(\\d+) npm run up\``));
    const suggested = Number(/HANGAR_PORT=(\d+)/.exec(run.output)![1]);
    expect(suggested).not.toBe(port);
    expect(run.output).toContain('Nothing was started.');
    // No server, service, log or pid file: the data dir is as it was.
    expect(run.output).not.toMatch(/Starting|Timed out|restart/i);
    expect(fs.readdirSync(dataDir)).toEqual([]);
    // The whole of it is the build check and one probe per port, not a minute of restarts.
    expect(run.ms).toBeLessThan(10_000);
  });

  it('when the gateway and a server the launcher starts are given the same port, then it says both want it before starting either', async () => {
    const port = await freePort();
    const run = await runLauncher({ HANGAR_PORT: String(port), NATS_URL: undefined, HANGAR_NATS_PORT: String(port) });
    expect(run.code).toBe(1);
    expect(run.output).toContain(`port ${port} is asked for both the gateway (HANGAR_PORT) and the nats-server it would start (HANGAR_NATS_PORT)`);
    expect(run.output).not.toMatch(/Starting/);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('when HTTP_HOST is not an address of this machine, then it says so and how to listen on loopback', async () => {
    // 192.0.2.0/24 is TEST-NET-1: never a local address.
    const run = await runLauncher({ HANGAR_PORT: String(await freePort()), HTTP_HOST: '192.0.2.1' });
    expect(run.code).toBe(1);
    expect(run.output).toContain('192.0.2.1 is not an address of this machine');
    expect(run.output).toContain('`HTTP_HOST=127.0.0.1 npm run up`');
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});
