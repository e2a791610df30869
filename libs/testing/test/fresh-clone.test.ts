import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A clone needs nothing beside it: the committed repository, cloned into an
 * empty temporary folder with its dependencies, passes the unit tests
 * that read files of the repository (the real packages in tests/fixtures, the
 * deployment files, the package manifests) — where a path that climbs out of
 * the checkout, or a package only hoisted by chance, fails. It clones HEAD:
 * uncommitted changes are not in it.
 */
const ROOT = path.resolve(__dirname, '..', '..', '..');
// One test per folder of tests/fixtures (apps, mobileprovisions, dsyms, proguards), the
// deployment files and the manifests: what each reads is found the way every test finds it
// (fixturesDir), and the first test above checks no tracked file names a path outside.
// The other parser tests that read tests/fixtures/apps (signing, byte-source, corrupt-input)
// add nothing here that ipa-apk does not show, and half a minute of one worker.
const UNIT_TESTS_THAT_READ_THE_REPOSITORY = [
  'libs/parsers/src/packages/ipa-apk.test.ts',
  'libs/parsers/src/packages/mobileprovision.test.ts',
  'libs/parsers/src/debug-files/parse-debug-file.test.ts',
  'libs/parsers/src/debug-files/retrace/retrace.differential.test.ts',
  'tests/deploy/',
  'libs/testing/src/declared-dependencies.test.ts',
];

describe('a clone of the repository with nothing beside it', () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-clone-'));
  const clone = path.join(parent, 'hangar');
  afterAll(() => fs.rmSync(parent, { recursive: true, force: true }));

  it('when no tracked file is read, then none names a path beside the checkout', () => {
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
    const outside = tracked.filter((file) => /\.(ts|mjs|js|json|md|sh|ya?ml)$|^\.ci\//.test(file) && /\.\.\/shared\/|HANGAR_FIXTURES_DIR/.test(fs.readFileSync(path.join(ROOT, file), 'utf8')));
    // This file names the pattern itself.
    expect(outside.filter((file) => file !== 'libs/testing/test/fresh-clone.test.ts')).toEqual([]);
  });

  it('when it is cloned into an empty folder beside its dependencies, then the unit tests that read the repository pass there', () => {
    execFileSync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone], { stdio: 'pipe' });
    expect(fs.readdirSync(parent)).toEqual(['hangar']);
    const run = (command: string, args: string[]) => {
      const result = spawnSync(command, args, { cwd: clone, encoding: 'utf8', env: { ...process.env, CI: 'true', HANGAR_QUERY_LOG_DIR: '' }, maxBuffer: 64 * 1024 * 1024 });
      return { command: [command, ...args].join(' '), status: result.status, output: result.status === 0 ? '' : `${result.stdout}\n${result.stderr}`.slice(-8_000) };
    };
    const expectOk = (outcome: ReturnType<typeof run>) => expect(outcome).toEqual({ command: outcome.command, status: 0, output: '' });
    // The dependencies, as hard links of this checkout's: installing from the lockfile in an empty
    // folder is what CI does to every clone before `npm test` (.ci/run), so repeating it here (a
    // minute of one worker) would prove nothing more. The workspace links are relative, so they
    // point into the clone: its libraries, not this checkout's, are what the tests load.
    execFileSync('cp', ['-al', path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules')]);
    expect(fs.readlinkSync(path.join(clone, 'node_modules', '@hangar', 'infra'))).toBe(path.join('..', '..', 'libs', 'infra'));
    // The test environment loads @hangar/infra's build (scripts/test.mjs builds it first too, as
    // here without checking its types again: the run's type-check reads the same sources).
    expectOk(run('npx', ['tsc', '-b', '--noCheck', 'libs/infra']));
    expectOk(run(path.join(clone, 'node_modules', 'jest', 'bin', 'jest.js'), ['--ci', '--maxWorkers=1', ...UNIT_TESTS_THAT_READ_THE_REPOSITORY, '--selectProjects', 'unit']));
  }, 600_000);
});
