import fs from 'node:fs';
import path from 'node:path';
import { safeLoad } from 'js-yaml';
import { Env, REPO_ROOT } from './config-schemas';

/** docker-compose.yml as Compose reads it: YAML merges resolved, variables interpolated. */

export interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null> | string[];
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test?: string[] | string; disable?: boolean };
  volumes?: (string | { type?: string; source?: string; target?: string })[];
  ports?: (string | number)[];
  stop_grace_period?: string;
  /** Started only with `--profile <name>`; none: by a plain `docker compose up`. */
  profiles?: string[];
  expose?: (string | number)[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, $VAR and $$. */
export function interpolate(text: string, vars: Env): string {
  return text.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (match, name, colon, op, arg, bare) => {
    if (match === '$$') return '$';
    if (bare) return vars[bare] ?? '';
    const value = vars[name];
    const missing = colon ? !value : value === undefined;
    if (op === '-') return missing ? arg : value!;
    if (op === '?' && missing) throw new Error(`${name} is required: ${arg}`);
    return value ?? '';
  });
}

/** The compose file with the variables an operator sets (none: a fresh `docker compose up`). */
export function loadCompose(vars: Env = {}): ComposeFile {
  const text = fs.readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
  // Parse first (anchors and merges), then interpolate every string, as Compose does.
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return interpolate(node, vars);
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
    return node;
  };
  return walk(safeLoad(text)) as ComposeFile;
}

/** A service's environment as the container sees it ("" kept: the process treats it as unset). */
export function environmentOf(service: ComposeService): Env {
  const env = service.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(env.map((entry) => [entry.split('=')[0]!, entry.slice(entry.indexOf('=') + 1)]));
  }
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

/** depends_on in its long form; the short (list) form has no condition. */
export function dependsOn(service: ComposeService): Record<string, string | undefined> {
  const deps = service.depends_on ?? {};
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((d) => [d, undefined]));
  return Object.fromEntries(Object.entries(deps).map(([k, v]) => [k, v?.condition]));
}

/** "30s", "1m30s", "500ms" → seconds (Compose's duration format); undefined → Docker's default 10 s. */
export function durationSeconds(value: string | undefined): number {
  if (value === undefined) return 10;
  let total = 0;
  for (const [, amount, unit] of value.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) total += Number(amount) * { ms: 0.001, s: 1, m: 60, h: 3600 }[unit as 'ms']!;
  return total;
}
