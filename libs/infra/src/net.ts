import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** True when something accepts TCP connections on host:port. */
export function isListening(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * A TCP port free right now on 127.0.0.1, for a process that will listen on
 * it shortly. It is taken from below the kernel's ephemeral range: a port
 * the kernel handed out (listen on port 0) is one it also gives outgoing
 * connections, and a long-lived one (a database pool's) that lands on it
 * first keeps the service from listening for as long as it lives — seen in
 * CI as a gateway failing EADDRINUSE on every restart for a minute.
 */
export async function freePort(): Promise<number> {
  const [low, high] = unassignedPortRange();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (handedOut.has(port)) continue;
    if ((await canListen(port)) && reserveOnThisMachine(port)) {
      handedOut.add(port);
      return port;
    }
  }
  return kernelAssignedPort();
}

/** Ports this process already handed out, which a service may not have bound yet. */
const handedOut = new Set<number>();

/**
 * How long a port handed out stays reserved for its taker across the machine:
 * long enough to cover the start of a whole installation (its last service
 * binds seconds after its port was chosen).
 */
const RESERVATION_MS = 10 * 60_000;
const RESERVATIONS_DIR = path.join(os.tmpdir(), 'hangar-port-reservations');

/**
 * Claims the port for this process against every other process on the
 * machine: two launchers (or test workers) starting at once pick from the same
 * range, and a port free when both probed it is bound by only one — the other
 * service failed EADDRINUSE (seen in the two-replica suite). A file created
 * exclusively is the claim; one older than RESERVATION_MS is stale and taken
 * over. Where the directory cannot be written, the in-process set stays the
 * only guard.
 */
function reserveOnThisMachine(port: number): boolean {
  const file = path.join(RESERVATIONS_DIR, String(port));
  const claim = () => fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
  try {
    fs.mkdirSync(RESERVATIONS_DIR, { recursive: true });
    claim();
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return true;
  }
  try {
    if (Date.now() - fs.statSync(file).mtimeMs < RESERVATION_MS) return false;
    fs.unlinkSync(file);
    claim();
    return true;
  } catch {
    // Another process took the stale claim over first.
    return false;
  }
}

/** [low, high): from 10000 to the start of the ephemeral range, when that leaves room. */
function unassignedPortRange(): [number, number] {
  let ephemeralStart = 32768;
  try {
    ephemeralStart = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    // Not Linux: keep the common default.
  }
  return ephemeralStart - 10_000 >= 1_000 ? [10_000, ephemeralStart] : [1_024, Math.max(ephemeralStart, 2_048)];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function kernelAssignedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  { timeoutMs = 30_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
}

export function parseHostPort(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port) };
}
