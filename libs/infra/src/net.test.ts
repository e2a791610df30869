import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort } from './net';

describe('freePort', () => {
  const ephemeralStart = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);

  it('when asked for ports, then they lie below the kernel ephemeral range, where outgoing connections never land', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(1_024);
      expect(port).toBeLessThan(ephemeralStart);
    }
  });

  it('when asked many times, then no port is handed out twice and each can be listened on', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 50; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(ports[0], '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });
});

describe('freePort across processes', () => {
  it('when two processes ask for many ports at the same moment, then none is handed to both', async () => {
    // Two real processes, as two launchers or test workers are (the built module: npm test builds first).
    // Without the machine-wide claim, 300 random picks each from the range would share about
    // 300 × 300 / 22,768 ≈ 4 ports on this machine.
    const built = path.join(__dirname, '..', 'dist', 'net.js');
    const program = `const { freePort } = require(${JSON.stringify(built)});
      (async () => { const ports = []; for (let i = 0; i < 300; i++) ports.push(await freePort()); process.stdout.write(JSON.stringify(ports)); })();`;
    const run = () =>
      new Promise<number[]>((resolve, reject) => {
        execFile(process.execPath, ['-e', program], (err, stdout) => (err ? reject(err) : resolve(JSON.parse(stdout) as number[])));
      });
    const [a, b] = await Promise.all([run(), run()]);
    expect(a).toHaveLength(300);
    expect(b).toHaveLength(300);
    expect(a.filter((port) => b.includes(port))).toEqual([]);
  });
});
