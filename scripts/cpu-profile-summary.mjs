#!/usr/bin/env node
// Where the CPU of many Node processes went, from the `.cpuprofile` files `--cpu-prof` left in one
// folder: the processes grouped by what they are (each service, jest, the launcher, the CLI), and
// for each group its CPU by package and its costliest functions. The companion of
// cpu-by-process.mjs, which says how much each process spent; this says on what.
//
//   NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/prof" <command>   # every Node process it starts
//   node scripts/cpu-profile-summary.mjs /tmp/prof [top=15]
//
// A frame inside a service's one-file bundle (dist/main.bundle.js) is named by the module it came
// from, read from the comment esbuild writes at the top of each module's code (as the query log
// does: libs/mongo/src/bundle-frames.ts). `HANGAR_SERVICE_BUNDLES=0` runs the services from their
// files instead, where frames name their files directly.
//
// Read the figures as a profiler's: time on the thread while it was not idle, so a blocking call
// (spawnSync, a synchronous write) counts as the caller's though the CPU waited; the collector's
// helper threads and the thread pool are not in it (cpu-by-process.mjs counts them).
import fs from 'node:fs';
import path from 'node:path';

const [dir, topArg] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node scripts/cpu-profile-summary.mjs <folder of .cpuprofile files> [top]');
  process.exit(2);
}
const top = Number(topArg ?? 15);

/** The module each line of a bundle belongs to, from esbuild's `// path/of/module.js` comments. */
const bundleModules = new Map();
function moduleOfBundleLine(bundle, line) {
  let index = bundleModules.get(bundle);
  if (!index) {
    index = { lines: [], paths: [] };
    const text = fs.existsSync(bundle) ? fs.readFileSync(bundle, 'utf8').split('\n') : [];
    text.forEach((content, i) => {
      const match = /^\/\/ (\S+)$/.exec(content);
      if (!match) return;
      index.lines.push(i);
      index.paths.push(match[1]);
    });
    bundleModules.set(bundle, index);
  }
  let low = 0;
  let high = index.lines.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (index.lines[mid] <= line) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found < 0 ? 'the bundle’s helpers' : index.paths[found];
}

/** The file a frame's code is from: its URL, or its module inside a bundle. */
function fileOf(callFrame) {
  const url = callFrame.url.replace(/^file:\/\//, '');
  return url.endsWith('main.bundle.js') ? moduleOfBundleLine(url, callFrame.lineNumber) : url;
}

/** A package (`mongoose`, `@grpc/grpc-js`), Hangar's own folder (`libs/events`), Node's internals, or V8's entries. */
function packageOf(file, functionName) {
  const dependency = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(file);
  if (dependency) return dependency[1];
  if (file.startsWith('node:')) return file.split('/').slice(0, 2).join('/');
  const own = /(?:^|\/)((?:services|libs|clients|tests|scripts)\/[^/]+)/.exec(file);
  if (own) return own[1];
  return file || functionName;
}

/** What a process is, from the files its frames come from. */
function kindOf(files) {
  for (const file of files) {
    const service = /services\/([a-z-]+)\//.exec(file);
    if (service) return service[1];
  }
  if (files.some((f) => /jest-(circus|worker|runner)/.test(f))) return 'jest';
  if (files.some((f) => f.includes('scripts/up.mjs') || f.includes('libs/infra/dist/launcher'))) return 'launcher';
  if (files.some((f) => f.includes('clients/cli'))) return 'cli';
  return 'other';
}

const groups = new Map();
for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const profile = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const kind = kindOf(profile.nodes.map((node) => node.callFrame.url));
  const group = groups.get(kind) ?? { processes: 0, micros: 0, byPackage: new Map(), byFunction: new Map() };
  group.processes++;
  profile.samples.forEach((id, i) => {
    const { callFrame } = nodes.get(id);
    if (callFrame.functionName === '(idle)') return;
    const micros = profile.timeDeltas[i] ?? 0;
    const file = fileOf(callFrame);
    const pkg = packageOf(file, callFrame.functionName);
    const fn = `${callFrame.functionName || '(anonymous)'} ${file.replace(/.*node_modules\//, '')}:${callFrame.lineNumber + 1}`;
    group.micros += micros;
    group.byPackage.set(pkg, (group.byPackage.get(pkg) ?? 0) + micros);
    group.byFunction.set(fn, (group.byFunction.get(fn) ?? 0) + micros);
  });
  groups.set(kind, group);
}

const seconds = (micros) => (micros / 1e6).toFixed(2);
const largest = (map) => [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
for (const [kind, group] of [...groups.entries()].sort((a, b) => b[1].micros - a[1].micros)) {
  console.log(`\n${kind}: ${seconds(group.micros)} s in ${group.processes} process(es)`);
  console.log(`  by package: ${largest(group.byPackage).map(([pkg, micros]) => `${pkg} ${seconds(micros)}`).join(', ')}`);
  for (const [fn, micros] of largest(group.byFunction)) console.log(`  ${seconds(micros).padStart(8)} s  ${fn}`);
}
