import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { moduleAt, unbundledFrame } from './bundle-frames';

describe("stack frames inside a service's bundle, named by their module", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-bundle-frames-'));
  const bundle = path.join(dir, 'main.bundle.js');
  // The shape esbuild writes (scripts/bundle-services.mjs): a banner, hoisted modules and
  // wrapped ones, each after a comment naming it, and the entry last.
  fs.writeFileSync(
    bundle,
    [
      '// services/apps/dist/main.js and what it loads, joined by scripts/bundle-services.mjs: do not edit.', // 1
      'var __commonJS = (cb, mod) => function __require() {};', // 2
      '', // 3
      '// node_modules/mongoose/lib/query.js', // 4
      'var require_query = __commonJS({', // 5
      '  "node_modules/mongoose/lib/query.js"(exports2, module2) {', // 6
      '    Query.prototype.exec = function exec() {};', // 7
      '  }', // 8
      '});', // 9
      '', // 10
      '// services/apps/dist/data/apps.repository.js', // 11
      'var require_apps_repository = __commonJS({', // 12
      '  "services/apps/dist/data/apps.repository.js"(exports2) {', // 13
      '    class AppsRepository { findLive() { return this.model.find({}); } }', // 14
      '  }', // 15
      '});', // 16
      '', // 17
      '// bundle-entry.js', // 18
      'require_apps_repository();', // 19
    ].join('\n'),
  );
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('when a line is inside a module, then the module is the last one named at or above it', () => {
    expect([1, 3, 4, 7, 11, 14, 16, 18, 19].map((line) => moduleAt(bundle, line))).toEqual([
      undefined,
      undefined,
      'node_modules/mongoose/lib/query.js',
      'node_modules/mongoose/lib/query.js',
      'services/apps/dist/data/apps.repository.js',
      'services/apps/dist/data/apps.repository.js',
      'services/apps/dist/data/apps.repository.js',
      'bundle-entry.js',
      'bundle-entry.js',
    ]);
  });

  it('when a frame is in the bundle, then it names the module as a frame of the file would; other frames stay as they were', () => {
    expect(unbundledFrame(`    at AppsRepository.findLive (${bundle}:14:60)`)).toBe('    at AppsRepository.findLive (/services/apps/dist/data/apps.repository.js:14:60)');
    expect(unbundledFrame(`    at async AppsRepository.findLive (${bundle}:14:60)`)).toBe('    at async AppsRepository.findLive (/services/apps/dist/data/apps.repository.js:14:60)');
    expect(unbundledFrame(`    at ${bundle}:14:7`)).toBe('    at (/services/apps/dist/data/apps.repository.js:14:7)');
    for (const line of ['    at async Promise.all (index 0)', '    at Query.exec (/srv/services/apps/dist/data/query.js:7:3)', `    at f (${path.join(dir, 'gone', 'main.bundle.js')}:14:1)`]) {
      expect(unbundledFrame(line)).toBe(line);
    }
  });
});
