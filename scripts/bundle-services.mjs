#!/usr/bin/env node
// Part of `npm run build`, after `tsc -b`: joins each service's built program (services/*/dist/main.js
// and every module it loads, its packages included) into dist/main.bundle.js with esbuild, and lists
// the files it was made of in dist/main.bundle.inputs.json. The launcher and the image run the bundle
// while it is current (libs/infra/src/service-bundle.ts says why and when); a bundle already current
// is left as it is, so a build that changed nothing costs only the check. (The CLI joins itself
// when first run, without esbuild, a development dependency the image leaves out: clients/cli/bin/bundle.js;
// esbuild here also turns the packages' ES modules into CommonJS, which that simpler joiner cannot.)
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { BUNDLE_FILE, BUNDLE_INPUTS_FILE, bundleIsCurrent } = require(path.join(root, 'libs', 'infra', 'dist', 'service-bundle.js'));

const services = fs
  .readdirSync(path.join(root, 'services'))
  .filter((name) => fs.existsSync(path.join(root, 'services', name, 'dist', 'main.js')))
  .sort();

await Promise.all(
  services.map(async (name) => {
    const dist = path.join(root, 'services', name, 'dist');
    const bundle = path.join(dist, BUNDLE_FILE);
    const inputsFile = path.join(dist, BUNDLE_INPUTS_FILE);
    if (bundleIsCurrent(bundle, inputsFile)) return;
    const result = await build({
      absWorkingDir: root,
      // With spans sent, the instrumentations must patch gRPC and the MongoDB driver as node loads
      // them (libs/telemetry), which they cannot inside one file: the bundle then runs dist/main.js.
      stdin: {
        contents: [
          `const { tracesExported } = require(${JSON.stringify(path.join(root, 'libs', 'telemetry', 'dist', 'otlp-exporter.js'))});`,
          `if (tracesExported(process.env)) require(require('node:path').join(__dirname, 'main.js'));`,
          `else require('./main.js');`,
        ].join('\n'),
        resolveDir: dist,
        sourcefile: 'bundle-entry.js',
      },
      outfile: bundle,
      bundle: true,
      platform: 'node',
      // The machines' floor (Node 20.19); the image runs Node 24.
      target: 'node20',
      format: 'cjs',
      metafile: true,
      logLevel: 'warning',
      // Resolved at run time on purpose (the gateway serves the package's folder as it is installed).
      external: ['@fortawesome/fontawesome-free/package.json'],
      banner: { js: `// services/${name}/dist/main.js and what it loads, joined by scripts/bundle-services.mjs: do not edit.` },
    });
    // The workspace's files one by one; the packages' (four in five of them) through the record npm
    // rewrites on every install: checking each of them took the launcher 200 ms of CPU per start.
    // (The entry above is no file: left out.)
    const own = Object.keys(result.metafile.inputs).filter((input) => !input.split(path.sep).includes('node_modules') && fs.existsSync(path.resolve(root, input)));
    const inputs = [...own, path.join('node_modules', '.package-lock.json')].map((input) => path.relative(dist, path.resolve(root, input)));
    fs.writeFileSync(inputsFile, `${JSON.stringify(inputs)}\n`);
  }),
);
