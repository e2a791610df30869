import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { safeLoadAll } from 'js-yaml';
import { REPO_ROOT } from './config-schemas';

/**
 * Renders deploy/k8s with kustomize v5, found in this order: `kubectl
 * kustomize` when kubectl embeds kustomize v5 (kubectl >= 1.27), a
 * `kustomize` v5 on PATH, one built before into .hangar/bin, or one built
 * now with Go through the module proxy (Go is already required: libs/testing/system-tools.json).
 * Debian's kubernetes-client (kubectl 1.20) embeds kustomize v2.0.3, which
 * does not know the `patches`, `replicas` or directory `resources` these
 * manifests use, so it is not enough.
 */
const KUSTOMIZE_MODULE = 'sigs.k8s.io/kustomize/kustomize/v5@v5.5.0';
const TOOLS_BIN = path.join(REPO_ROOT, '.hangar', 'bin');

export interface Renderer {
  file: string;
  args: string[];
}

function run(file: string, args: string[]): string | undefined {
  try {
    return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
  } catch {
    return undefined;
  }
}

const majorOf = (text: string | undefined, pattern: RegExp) => Number(pattern.exec(text ?? '')?.[1] ?? 0);

let cached: Renderer | undefined;

export function kustomizeRenderer(): Renderer {
  if (cached) return cached;
  if (majorOf(run('kubectl', ['version', '--client']), /Kustomize Version: v(\d+)/) >= 5) {
    return (cached = { file: 'kubectl', args: ['kustomize'] });
  }
  if (majorOf(run('kustomize', ['version']), /v(\d+)\./) >= 5) {
    return (cached = { file: 'kustomize', args: ['build'] });
  }
  const local = path.join(TOOLS_BIN, 'kustomize');
  const stamp = `${local}.stamp`;
  if (fs.existsSync(local) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === KUSTOMIZE_MODULE) {
    return (cached = { file: local, args: ['build'] });
  }
  if (run('go', ['version'])) {
    fs.mkdirSync(TOOLS_BIN, { recursive: true });
    process.stderr.write(`Building ${KUSTOMIZE_MODULE} with Go into .hangar/bin (first run only)…\n`);
    execFileSync('go', ['install', KUSTOMIZE_MODULE], { env: { ...process.env, GOBIN: TOOLS_BIN }, stdio: ['ignore', 'inherit', 'inherit'] });
    fs.writeFileSync(stamp, KUSTOMIZE_MODULE);
    return (cached = { file: local, args: ['build'] });
  }
  throw new Error(
    'kustomize v5 not found. Install kubectl >= 1.27 (`kubectl kustomize` embeds kustomize v5), or a kustomize v5 binary, ' +
      `or Go (the tests then build ${KUSTOMIZE_MODULE} into .hangar/bin). Debian's kubernetes-client (kubectl 1.20, kustomize v2.0.3) is too old.`,
  );
}

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  // The rest is checked field by field in the tests.
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

/** `kustomize build deploy/k8s/<dir>`, parsed. */
export function render(dir: string): K8sObject[] {
  const { file, args } = kustomizeRenderer();
  const out = execFileSync(file, [...args, path.join(REPO_ROOT, 'deploy', 'k8s', dir)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return safeLoadAll(out).filter((doc): doc is K8sObject => doc !== null && typeof doc === 'object');
}

/** Kubernetes quantities ("250m", "2", "512Mi", "1Gi") as plain numbers. */
export function quantity(value: unknown): number {
  const match = /^(\d+(?:\.\d+)?)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(String(value));
  if (!match) throw new Error(`not a quantity: ${String(value)}`);
  const factor: Record<string, number> = { '': 1, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
  return Number(match[1]) * factor[match[2] ?? '']!;
}
