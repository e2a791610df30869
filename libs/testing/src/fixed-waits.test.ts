import fs from 'node:fs';
import path from 'node:path';
import { fixedWaitsIn, testFiles } from './fixed-waits';

const ROOT = path.resolve(__dirname, '..', '..', '..');

// The fixed waits the suite still has (2026-11-28: 4, all in tests/e2e, about 9 s — two of them
// through named constants, which the count sees since then; every other test waits for a
// condition or moves a clock): debt to pay down, never to grow. A new test waits for a
// condition; a change that removes fixed waits lowers this number in the same commit.
const ALLOWANCE = 4;

describe('fixed waits in the test suite', () => {
  it('when the test files are scanned, then they hold no more fixed waits than the allowance', () => {
    const waits = testFiles(ROOT)
      .filter((file) => !file.endsWith(path.join('libs', 'testing', 'src', 'fixed-waits.test.ts')))
      .flatMap((file) => fixedWaitsIn(fs.readFileSync(file, 'utf8'), path.relative(ROOT, file)));
    const listing = waits.map((w) => `${w.file}:${w.line} ${w.ms} ms`).join('\n');
    expect({ count: waits.length, withinAllowance: waits.length <= ALLOWANCE, listing: waits.length <= ALLOWANCE ? '' : listing }).toEqual({ count: waits.length, withinAllowance: true, listing: '' });
  });

  it('when a test sleeps a fixed time in any of the usual forms, then the scan counts it; a short polling step is not counted', () => {
    const source = ['await sleep(1_000);', 'await new Promise((r) => setTimeout(r, 500));', 'await delay(250)', 'while (!done) await sleep(250);', 'await setTimeout(2000);'].join('\n');
    expect(fixedWaitsIn(source).map((w) => [w.line, w.ms])).toEqual([
      [1, 1000],
      [2, 500],
      [3, 250],
      [5, 2000],
    ]);
  });

  it('when a wait names a constant the file sets to a number, then it is counted at that number; a short or computed one is not', () => {
    const source = [
      'const GRACE_MS = 1_500;',
      'const STEP_MS = 20;',
      'await sleep(GRACE_MS);',
      'await new Promise((r) => setTimeout(r, GRACE_MS));',
      'await sleep(STEP_MS);',
      'await sleep(expiresAt - Date.now());',
      'await sleep(ms);',
      'while (!done) await sleep(GRACE_MS);',
      'await page.waitForTimeout(GRACE_MS);',
    ].join('\n');
    expect(fixedWaitsIn(source).map((w) => [w.line, w.ms])).toEqual([
      [3, 1500],
      [4, 1500],
      [9, 1500],
    ]);
  });

  it('when a line only looks like a wait (a comment, a test time limit, a wait on the fake clock), then it is not counted', () => {
    const source = [
      '/**',
      ' * e.g. `await sleep(1_000)`',
      ' */',
      '// await sleep(2_000);',
      'jest.setTimeout(20_000);',
      'await fakeSleep(150);',
      'await sleep(300); // a real one, commented',
    ].join('\n');
    expect(fixedWaitsIn(source).map((w) => [w.line, w.ms])).toEqual([[7, 300]]);
  });
});
