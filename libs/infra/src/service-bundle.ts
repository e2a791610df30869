import fs from 'node:fs';
import path from 'node:path';

/**
 * A service's built program joined into one file (`dist/main.bundle.js`, written by
 * scripts/bundle-services.mjs after `tsc -b`), run in place of `dist/main.js`.
 *
 * Why: a service's start was mostly loading its modules — 1,300 to 2,900 files found, read and
 * compiled one by one (mongoose, zod, gRPC, OpenTelemetry, its libraries) — 1.2–2.0 s of CPU each,
 * paid by every pod the autoscaler adds and every `npm run up`. One file cuts the finding and
 * reading: bench/service-start.bench.mjs prints both.
 *
 * The bundle sits beside main.js, so the few paths computed from `__dirname` at the top of
 * `dist/` (the repository root, the console's build) resolve the same from either; a package
 * resolved at run time (`require.resolve`) is found from there too.
 */
export const BUNDLE_FILE = 'main.bundle.js';
/** The files the bundle was made of (esbuild's inputs), beside it: what decides it is current. */
export const BUNDLE_INPUTS_FILE = 'main.bundle.inputs.json';

/**
 * The bundle to run for `entry` (a service's dist/main.js): none when `HANGAR_SERVICE_BUNDLES=0`
 * (plain files: readable stack traces while debugging), when it is missing, or when any file it
 * was made of changed after it (a `tsc -b` since the last `npm run build`) — a stale bundle would
 * run code that is no longer the source's, so it is never run.
 */
export function currentBundle(entry: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.HANGAR_SERVICE_BUNDLES === '0') return undefined;
  const dir = path.dirname(entry);
  const bundle = path.join(dir, BUNDLE_FILE);
  return bundleIsCurrent(bundle, path.join(dir, BUNDLE_INPUTS_FILE)) ? bundle : undefined;
}

/** Whether `bundle` exists and no file listed in `inputsFile` (paths relative to the bundle's folder) is newer or gone. */
export function bundleIsCurrent(bundle: string, inputsFile: string): boolean {
  const made = fs.statSync(bundle, { throwIfNoEntry: false })?.mtimeMs;
  if (made === undefined) return false;
  let inputs: unknown;
  try {
    inputs = JSON.parse(fs.readFileSync(inputsFile, 'utf8'));
  } catch {
    return false;
  }
  if (!Array.isArray(inputs) || inputs.length === 0) return false;
  const dir = path.dirname(bundle);
  return inputs.every((input) => {
    const changed = typeof input === 'string' ? fs.statSync(path.resolve(dir, input), { throwIfNoEntry: false })?.mtimeMs : undefined;
    return changed !== undefined && changed <= made;
  });
}
