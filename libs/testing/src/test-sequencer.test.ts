import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '@hangar/infra';

// Plain CommonJS, as jest requires it (libs/testing/test-sequencer.js).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Sequencer = require('../test-sequencer') as { new (options: unknown): { sort(tests: FakeTest[]): FakeTest[] }; usesSharedHangar(file: string): boolean };

interface FakeTest {
  path: string;
  context: { config: { cache: boolean; id: string }; hasteFS: { getSize(file: string): number } };
}

describe('the order of the test files (libs/testing/test-sequencer.js)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-sequencer-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A test file of `size` bytes whose code starts a Hangar of its own, uses the shared one, or both. */
  const file = (name: string, uses: 'own' | 'shared' | 'both' | 'none', size: number): FakeTest => {
    const code = { own: 'await startHangar({});', shared: 'await sharedHangar();', both: 'await sharedHangar(); await startHangar({});', none: 'expect(1).toBe(1);' }[uses];
    const filePath = path.join(dir, `${name}.test.ts`);
    fs.writeFileSync(filePath, `${code}\n${'//'.padEnd(size, ' ')}\n`);
    return { path: filePath, context: { config: { cache: false, id: 'e2e' }, hasteFS: { getSize: (f) => fs.statSync(f).size } } };
  };

  it("when files on a shared Hangar are among those that start their own, then they come last, each part in jest's order (longest first)", () => {
    const tests = [file('crud', 'shared', 100), file('matrix', 'own', 900), file('cli', 'both', 500), file('unit', 'none', 50), file('crashes', 'own', 300), file('console', 'shared', 700)];
    const order = new Sequencer({}).sort(tests).map((t) => path.basename(t.path, '.test.ts'));
    expect(order).toEqual(['matrix', 'crashes', 'unit', 'console', 'cli', 'crud']);
  });

  it('when the real end-to-end files are read, then those on the shared Hangar are told apart from those that start their own', () => {
    const e2e = (name: string) => path.join(REPO_ROOT, 'tests', 'e2e', `${name}.test.ts`);
    expect([e2e('apps-crud'), e2e('console'), e2e('cli')].map(Sequencer.usesSharedHangar)).toEqual([true, true, true]);
    expect([e2e('auth-matrix'), e2e('kill-each-service')].map(Sequencer.usesSharedHangar)).toEqual([false, false]);
  });
});
