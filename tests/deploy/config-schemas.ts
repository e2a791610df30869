import fs from 'node:fs';
import path from 'node:path';

/** What the deploy tests know of the code: its processes and their config schemas. */

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

export type Env = Record<string, string>;
export type ConfigLoader = (env: Env) => Record<string, unknown>;

/** Every Hangar process: a folder under services/ with a src/main.ts (the gateway included). */
export function hangarProcesses(): string[] {
  const dir = path.join(REPO_ROOT, 'services');
  return fs
    .readdirSync(dir)
    .filter((name) => fs.existsSync(path.join(dir, name, 'src', 'main.ts')))
    .sort();
}

/**
 * The process's own `load…Config(env)` from services/<name>/src/config.ts:
 * the schema the process parses at start, so a manifest's environment that
 * passes it is one the process starts with.
 */
export function configLoader(processName: string): ConfigLoader {
  const mod = require(path.join(REPO_ROOT, 'services', processName, 'src', 'config.ts')) as Record<string, unknown>;
  const loaders = Object.entries(mod).filter(([name, value]) => /^load\w*Config$/.test(name) && typeof value === 'function');
  if (loaders.length !== 1) {
    throw new Error(`services/${processName}/src/config.ts should export exactly one load…Config function, found ${loaders.map(([n]) => n).join(', ') || 'none'}`);
  }
  return loaders[0]![1] as ConfigLoader;
}

/** The problems loadConfig lists ("NAME: message"), or none when the environment passes. */
export function configProblems(load: ConfigLoader, env: Env): string[] {
  try {
    load(env);
    return [];
  } catch (err) {
    const problems = (err as { problems?: unknown }).problems;
    if (Array.isArray(problems)) return problems.map(String);
    throw err;
  }
}

/**
 * Whether the schema declares `name`. zod objects drop keys they do not know,
 * so a declared key either comes back from the loader or is reported as a
 * problem when given a nonsense value; an undeclared one does neither.
 */
export function declares(load: ConfigLoader, env: Env, name: string): boolean {
  const probe = { ...env, [name]: '\u0001not-a-value' };
  try {
    return Object.prototype.hasOwnProperty.call(load(probe), name);
  } catch (err) {
    const problems = (err as { problems?: unknown }).problems;
    if (!Array.isArray(problems)) throw err;
    return problems.some((p) => String(p).startsWith(`${name}:`));
  }
}

/**
 * Names in `env` the process's schema does not declare (typos, leftovers,
 * wrong process). `env` must pass the schema: a probe that fails for another
 * key would tell nothing about this one.
 */
export function undeclaredNames(processName: string, env: Env): string[] {
  const load = configLoader(processName);
  const problems = configProblems(load, env);
  if (problems.length > 0) throw new Error(`${processName}: the environment must pass its schema first: ${problems.join('; ')}`);
  return Object.keys(env).filter((name) => !declares(load, env, name));
}

/** The script a container command runs, `node services/<name>/dist/main.bundle.js` (the service in one file, scripts/bundle-services.mjs) → name. */
export function processOfCommand(command: unknown): string | undefined {
  if (!Array.isArray(command) || command.length !== 2 || command[0] !== 'node') return undefined;
  return /^services\/([a-z0-9-]+)\/dist\/main\.bundle\.js$/.exec(String(command[1]))?.[1];
}

export interface Dependency {
  variable: string;
  host: string;
  port: number;
}

/**
 * Where a process's configuration sends it: gRPC targets, MongoDB, NATS and
 * S3, with the port each URL implies. Network policies and depends_on must
 * allow exactly these.
 */
export function dependenciesOf(env: Env): Dependency[] {
  const deps: Dependency[] = [];
  for (const [variable, value] of Object.entries(env)) {
    if (!value) continue;
    if (variable.endsWith('_GRPC_TARGET')) {
      const [host, port] = value.split(':');
      deps.push({ variable, host: host!, port: Number(port) });
    } else if (variable === 'MONGO_URL') {
      // mongodb://[user:pw@]h1[:p1],h2[:p2]/…; mongodb+srv:// names a DNS record whose hosts use 27017.
      const hosts = value.replace(/^mongodb(\+srv)?:\/\//, '').replace(/^[^@/]*@/, '').split(/[/?]/)[0]!;
      for (const hostPort of hosts.split(',')) {
        const [host, port] = hostPort.split(':');
        deps.push({ variable, host: host!, port: Number(port ?? 27017) });
      }
    } else if (variable === 'NATS_URL') {
      for (const url of value.split(',')) {
        const parsed = new URL(url.trim());
        deps.push({ variable, host: parsed.hostname, port: Number(parsed.port || 4222) });
      }
    } else if (variable === 'S3_ENDPOINT') {
      const parsed = new URL(value);
      deps.push({ variable, host: parsed.hostname, port: Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80)) });
    }
  }
  return deps;
}
