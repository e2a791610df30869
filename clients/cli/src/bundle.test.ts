import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const { writeBundle } = require('../bin/bundle.js') as { writeBundle: (entry: string, out: string) => void };

describe('the CLI joined into one file (bin/bundle.js)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-cli-bundle-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A require in a module written here, spelled so the suite's import scan does not take it for this file's own. */
  const r = (spec: string) => `require(${JSON.stringify(spec)})`;
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };

  it('when modules require each other, a package, JSON and Node, then the bundle runs as they do, each module once, with their own file names', () => {
    write('dist/main.js', `const a = ${r('./a')}; const b = ${r('./lib/b.js')}; const { name } = ${r('../package.json')}; const dep = ${r('dep')};
      process.stdout.write(JSON.stringify({ a: a.value, b: b.value, name, dep: dep(), same: ${r('./a')} === a, file: ${r('node:path')}.basename(__filename), late: require('./late-' + 'bound') }));`);
    write('dist/a.js', `exports.value = 'a' + ${r('./lib/b.js')}.value;`);
    write('dist/lib/b.js', `exports.value = 'b'; ${r('../a')};`);
    write('dist/late-bound.js', `module.exports = 'found at run time';`);
    write('package.json', JSON.stringify({ name: 'bundled' }));
    write('node_modules/dep/package.json', JSON.stringify({ name: 'dep', main: 'main.js' }));
    write('node_modules/dep/main.js', `module.exports = () => ${r('node:os')} === ${r('os')} && 'dep';`);
    const run = (file: string) => JSON.parse(execFileSync(process.execPath, [file], { encoding: 'utf8' }));

    const bundle = path.join(dir, 'dist', 'bundle.js');
    writeBundle(path.join(dir, 'dist', 'main.js'), bundle);
    expect(run(bundle)).toEqual(run(path.join(dir, 'dist', 'main.js')));
    expect(run(bundle)).toEqual({ a: 'ab', b: 'b', name: 'bundled', dep: 'dep', same: true, file: 'main.js', late: 'found at run time' });
    // Everything it could resolve is inside: the sources can go.
    fs.rmSync(path.join(dir, 'node_modules'), { recursive: true });
    fs.rmSync(path.join(dir, 'dist', 'a.js'));
    expect(run(bundle).a).toBe('ab');
  });
});
