import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The repository root: libs/infra/{src,dist}/ is two levels below it. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

export const TOOLS_BIN_DIR = path.join(REPO_ROOT, '.hangar', 'bin');

export const VERSITYGW_MODULE = 'github.com/versity/versitygw/cmd/versitygw@v1.7.0';

/**
 * Builds a Go program once with the machine's Go (through the module proxy)
 * and caches the binary under .hangar/bin; a stamp of the inputs decides when
 * to rebuild.
 */
function buildCached(name: string, stampInput: string, build: (binary: string) => void): string {
  const binary = path.join(TOOLS_BIN_DIR, name);
  const stampFile = `${binary}.stamp`;
  const stamp = crypto.createHash('sha256').update(stampInput).digest('hex');
  if (fs.existsSync(binary) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp) {
    return binary;
  }
  fs.mkdirSync(TOOLS_BIN_DIR, { recursive: true });
  process.stderr.write(`Building ${name} with Go (first run only)…\n`);
  build(binary);
  fs.writeFileSync(stampFile, stamp);
  return binary;
}

function go(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): void {
  execFileSync('go', args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
}

/** FerretDB 1.24 embedded in tools/ferretdb (see that folder for why). */
export function ferretdbBinary(): string {
  const dir = path.join(REPO_ROOT, 'tools', 'ferretdb');
  const inputs = ['go.mod', 'go.sum', 'main.go'].map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\0');
  return buildCached('ferretdb', inputs, (binary) => go(['build', '-o', binary, '.'], { cwd: dir }));
}

export function versitygwBinary(): string {
  return buildCached('versitygw', VERSITYGW_MODULE, () =>
    go(['install', VERSITYGW_MODULE], { env: { ...process.env, GOBIN: TOOLS_BIN_DIR } }),
  );
}

/** Debian's nats-server, on PATH or in /usr/sbin. */
export function natsServerBinary(): string {
  for (const candidate of ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server']) {
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error('nats-server not found: install it (apt-get install nats-server) or set NATS_URL');
}
