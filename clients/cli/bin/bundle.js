'use strict';
// Joins the built CLI (dist/main.js and every module it requires, its packages included) into one
// file. Measured with the CPU of 20 runs of `hangar --version`: Node alone 62 ms, the CLI from
// dist/ 92 ms, from one file 74 ms — most of the CLI's own start was finding, reading and
// compiling ~40 small files, which every upload paid (20 uploads at once pay it 20 times).
// Node's own modules are left to Node; a require this scan cannot resolve is done at run time
// from the original file's place, so the bundle behaves as dist/ does.
const fs = require('node:fs');
const path = require('node:path');
const { builtinModules, createRequire } = require('node:module');

const REQUIRE = /\brequire\(\s*(['"])([^'"]+)\1\s*\)/g;
const builtin = (spec) => spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]);

/** The bundle's text for the program whose entry is `entry`. */
function bundleOf(entry) {
  const ids = new Map();
  const modules = [];
  const visit = (file) => {
    if (ids.has(file)) return ids.get(file);
    const id = modules.length;
    ids.set(file, id);
    const module = { file, source: '', links: {} };
    modules.push(module);
    const text = fs.readFileSync(file, 'utf8');
    if (file.endsWith('.json')) {
      module.source = `module.exports = ${text.trim()};`;
      return id;
    }
    // A source map comment would point into a file the bundle is not.
    module.source = text.replace(/^\/\/# sourceMappingURL=.*$/gm, '');
    const resolve = createRequire(file).resolve;
    for (const [, , spec] of text.matchAll(REQUIRE)) {
      if (builtin(spec) || spec in module.links) continue;
      let target;
      try {
        target = resolve(spec);
      } catch {
        continue; // a require in a comment or one that is never taken: left to run time
      }
      if (builtin(target)) continue;
      module.links[spec] = visit(target);
    }
    return id;
  };
  visit(entry);
  const root = path.dirname(entry);
  const parts = modules.map(
    (m) =>
      `[${JSON.stringify(path.relative(root, m.file))}, ${JSON.stringify(m.links)}, function (exports, require, module, __filename, __dirname) {\n${m.source}\n}]`,
  );
  return `'use strict';
// Built from ${path.basename(entry)} and what it requires by bin/bundle.js; run by bin/hangar.js.
const { createRequire, isBuiltin } = require('node:module');
const path = require('node:path');
const root = __dirname;
const outer = require;
const modules = [
${parts.join(',\n')}
];
const cache = new Array(modules.length);
function load(id) {
  if (cache[id]) return cache[id].exports;
  const [file, links, body] = modules[id];
  const filename = path.join(root, file);
  const module = { exports: {}, id: filename, filename, loaded: false };
  cache[id] = module;
  let fallback;
  const localRequire = (spec) => (spec in links ? load(links[spec]) : isBuiltin(spec) ? outer(spec) : (fallback ??= createRequire(filename))(spec));
  localRequire.resolve = (spec) => (fallback ??= createRequire(filename)).resolve(spec);
  body.call(module.exports, module.exports, localRequire, module, filename, path.dirname(filename));
  module.loaded = true;
  return module.exports;
}
load(0);
`;
}

/** Writes the bundle of `entry` to `out`, whole or not at all (concurrent runs may build it at once). */
function writeBundle(entry, out) {
  const text = bundleOf(entry);
  const temp = `${out}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text);
  fs.renameSync(temp, out);
}

module.exports = { bundleOf, writeBundle };
