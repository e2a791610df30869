import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './config-schemas';

/** scripts/test-figures.mjs's lines for jest results, run as `npm test` runs it (an ES module, in Node). */
function figureLines(testResults: unknown[]): string[] {
  const script = `import(${JSON.stringify(path.join(REPO_ROOT, 'scripts', 'test-figures.mjs'))}).then(({ figures }) => {
    const runs = [{ title: 'suites', wallMs: 1000, results: { testResults: JSON.parse(process.argv[1]) } }];
    process.stdout.write(figures('/repo', runs).join('\\n'));
  });`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(testResults)], { encoding: 'utf8' }).split('\n');
}

describe('the figures printed at the end of a run', () => {
  const coloured = (text: string) => `\u001b[31m${text}\u001b[39m`;

  it('when tests failed, then each is named last with the start of its message, without colours, diff headers, code or stack frames', () => {
    const message = [
      coloured('expect(received).toEqual(expected) // deep equality'),
      '',
      '- Expected  - 1',
      '+ Received  + 1',
      '',
      '  Object {',
      '-   "felt": true,',
      '+   "felt": false,',
      '  }',
      '  > 399 |   expect(x).toEqual(y);',
      '        |             ^',
      '    at Object.toEqual (tests/e2e/kill-each-service.test.ts:399:9)',
    ].join('\n');
    const lines = figureLines([
      {
        name: '/repo/tests/e2e/kill-each-service.test.ts',
        status: 'failed',
        startTime: 0,
        endTime: 2000,
        assertionResults: [
          { status: 'passed', fullName: 'kill -9 › a test that passed', failureMessages: [] },
          { status: 'failed', fullName: 'kill -9 › each process', failureMessages: [message] },
        ],
      },
      { name: '/repo/libs/x/src/broken.test.ts', status: 'failed', message: "Cannot find module 'y'\n    at require (x.js:1:1)", startTime: 0, endTime: 10, assertionResults: [] },
      { name: '/repo/libs/x/src/fine.test.ts', status: 'passed', startTime: 0, endTime: 10, assertionResults: [{ status: 'passed', fullName: 'fine', failureMessages: [] }] },
    ]);
    expect(lines.slice(lines.indexOf('failed:'))).toEqual([
      'failed:',
      '  ✕ tests/e2e/kill-each-service.test.ts › kill -9 › each process',
      '      expect(received).toEqual(expected) // deep equality',
      '        Object {',
      '      -   "felt": true,',
      '      +   "felt": false,',
      '        }',
      '  ✕ libs/x/src/broken.test.ts (the file did not run)',
      "      Cannot find module 'y'",
    ]);
  });

  it('when every test passed, then no failure section is printed', () => {
    const lines = figureLines([{ name: '/repo/libs/x/src/fine.test.ts', status: 'passed', startTime: 0, endTime: 10, assertionResults: [{ status: 'passed', fullName: 'fine', failureMessages: [] }] }]);
    expect(lines).toContain('ten slowest files:');
    expect(lines).not.toContain('failed:');
  });
});
