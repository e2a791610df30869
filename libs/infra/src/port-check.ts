import net from 'node:net';
import { DEFAULT_PORTS, LOCAL_HOST, portFromEnv } from './infrastructure';
import { isListening } from './net';
import { SetupError } from './setup-error';

/** A port the launcher will listen on itself, and the setting that moves it. */
export interface PortToBind {
  port: number;
  host: string;
  /** What listens there, as a person reads it: "the gateway". */
  owner: string;
  variable: string;
  /** Another way out than moving the port, when there is one. */
  instead?: string;
}

/**
 * Every fixed port `npm run up` will listen on: the public port, and the port of each server it
 * will start itself (a URL in the environment, or a server already answering on the port, and it
 * starts none). The services' gRPC and /metrics ports and PostgreSQL's are picked free at start,
 * so none of them can be taken beforehand.
 */
export async function portsToBind(env: NodeJS.ProcessEnv, http: { host: string; port: number }): Promise<PortToBind[]> {
  const ports: PortToBind[] = [{ port: http.port, host: http.host, owner: 'the gateway', variable: 'HANGAR_PORT' }];
  const servers = [
    { url: 'MONGO_URL', variable: 'HANGAR_MONGO_PORT', fallback: DEFAULT_PORTS.mongo, owner: 'the FerretDB (MongoDB wire protocol) it would start', instead: 'MONGO_URL for a MongoDB running elsewhere' },
    { url: 'NATS_URL', variable: 'HANGAR_NATS_PORT', fallback: DEFAULT_PORTS.nats, owner: 'the nats-server it would start', instead: 'NATS_URL for a NATS running elsewhere' },
    { url: 'S3_ENDPOINT', variable: 'HANGAR_S3_PORT', fallback: DEFAULT_PORTS.s3, owner: 'the versitygw (S3) it would start', instead: 'S3_ENDPOINT for an S3 running elsewhere' },
  ];
  for (const server of servers) {
    if (env[server.url]) continue;
    const port = portFromEnv(env, server.variable, server.fallback);
    // A server answering there is used, not started (infrastructure.ts): its port is not bound here.
    if (await isListening(LOCAL_HOST, port)) continue;
    ports.push({ port, host: LOCAL_HOST, owner: server.owner, variable: server.variable, instead: server.instead });
  }
  return ports;
}

/** Why a port cannot be listened on, in a person's words; undefined when it can. */
export async function whyNotListenable(port: number, host: string): Promise<string | undefined> {
  const code = await new Promise<string | undefined>((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    server.listen(port, host, () => server.close(() => resolve(undefined)));
  });
  if (code === undefined) return undefined;
  if (code === 'EADDRINUSE') return 'is already in use by another program';
  if (code === 'EACCES') return 'needs privileges this user lacks (ports below 1024 do)';
  if (code === 'EADDRNOTAVAIL') return `cannot be opened: ${host} is not an address of this machine`;
  return `cannot be opened (${code})`;
}

/**
 * Checked before anything starts: a port another program holds would otherwise surface as a
 * process restarted with backoff for a minute, its EADDRINUSE lost among the restart lines.
 * Throws one paragraph naming each port, whose it is, the variable that moves it and a free
 * port to move it to.
 */
export async function assertPortsFree(ports: PortToBind[]): Promise<void> {
  const problems: string[] = [];
  const moves: string[] = [];
  const planned = new Set(ports.map((p) => p.port));
  const seen = new Map<number, PortToBind>();
  for (const wanted of ports) {
    const twin = seen.get(wanted.port);
    seen.set(wanted.port, wanted);
    if (twin) {
      problems.push(`port ${wanted.port} is asked for both ${twin.owner} (${twin.variable}) and ${wanted.owner} (${wanted.variable})`);
      moves.push(`${wanted.variable}=${await nearbyFreePort(wanted, planned)}`);
      continue;
    }
    const why = await whyNotListenable(wanted.port, wanted.host);
    if (!why) continue;
    problems.push(`port ${wanted.port} on ${wanted.host}, for ${wanted.owner} (${wanted.variable}${wanted.instead ? `; or ${wanted.instead}` : ''}), ${why}`);
    if (why.startsWith('cannot be opened:')) moves.push('HTTP_HOST=127.0.0.1');
    // A privileged port's neighbours are privileged too: suggest one from 8080 up instead.
    else moves.push(`${wanted.variable}=${await nearbyFreePort({ ...wanted, port: wanted.port < 1024 ? 8079 : wanted.port }, planned)}`);
  }
  if (problems.length === 0) return;
  throw new SetupError(
    `Hangar cannot start: ${problems.join('; ')}. Stop what holds ${problems.length === 1 ? 'it' : 'them'}, or start Hangar elsewhere, e.g. ` +
      `\`${moves.join(' ')} npm run up\`. Nothing was started.`,
  );
}

/** The first port above `wanted` that can be listened on and is not already planned, as a suggestion. */
async function nearbyFreePort(wanted: PortToBind, planned: Set<number>): Promise<number> {
  for (let port = wanted.port + 1; port < Math.min(wanted.port + 100, 65536); port++) {
    if (planned.has(port)) continue;
    if ((await whyNotListenable(port, wanted.host)) === undefined) {
      planned.add(port);
      return port;
    }
  }
  return wanted.port + 1;
}
