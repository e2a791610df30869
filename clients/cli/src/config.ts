import fs from 'node:fs';
import path from 'node:path';
import { userDirs } from './user-dirs';

/** What `hangar login` keeps: the server and the token to speak to it with. */
export interface StoredConfig {
  url?: string;
  token?: string;
}

export interface Connection {
  url: string;
  token: string | undefined;
  /** Where each value came from, for `hangar login --status` and error messages. */
  sources: { url: 'flag' | 'env' | 'config' | 'none'; token: 'flag' | 'env' | 'config' | 'none' };
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(userDirs(env).config, 'config.json');
}

export function readConfig(file: string): StoredConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  const parsed = JSON.parse(text) as unknown;
  if (!parsed || typeof parsed !== 'object') throw new Error(`${file} is not a JSON object`);
  const { url, token } = parsed as Record<string, unknown>;
  return { ...(typeof url === 'string' ? { url } : {}), ...(typeof token === 'string' ? { token } : {}) };
}

/**
 * Writes the file so that no other user can read the token at any moment:
 * a new file is created 0600 in a 0700 folder and renamed over the old one,
 * and an existing file with looser bits is tightened too.
 */
export function writeConfig(file: string, config: StoredConfig): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
}

/** A flag wins over `HANGAR_URL` / `HANGAR_TOKEN`, which win over the config file. */
export function resolveConnection(flags: { url?: string; token?: string }, env: NodeJS.ProcessEnv = process.env): Connection {
  const stored = readConfig(configPath(env));
  const pick = (flag: string | undefined, fromEnv: string | undefined, fromFile: string | undefined) =>
    flag ? { value: flag, source: 'flag' as const } : fromEnv ? { value: fromEnv, source: 'env' as const } : fromFile ? { value: fromFile, source: 'config' as const } : { value: undefined, source: 'none' as const };
  const url = pick(flags.url, env.HANGAR_URL?.trim(), stored.url);
  const token = pick(flags.token, env.HANGAR_TOKEN?.trim(), stored.token);
  return { url: (url.value ?? '').replace(/\/+$/, ''), token: token.value, sources: { url: url.source, token: token.source } };
}
