import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RunningHangar, fixturesDir, sharedHangar, uniqueName } from '@hangar/testing';
import { CliHome, CliResult, cliHome, runCli } from './cli-runner';

/**
 * Which branch and commit `hangar upload` stamps on a build: the current directory's checkout's
 * only when the build is of it (the file lies inside its work tree, or --changelog-from-git says
 * so), the CI job's, or the flags' — never those of whatever checkout the command was run in.
 */
describe('the hangar CLI stamping git branch and commit', () => {
  let hangar: RunningHangar;
  let home: CliHome;
  let env: NodeJS.ProcessEnv;
  let repo: string;
  let elsewhere: string;
  const apk = path.join(fixturesDir(), 'apps', 'android.apk');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', ...args], { cwd: repo, encoding: 'utf8' }).trim();
  const uploaded = (run: CliResult) => {
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    const release = JSON.parse(run.stdout) as { branch?: string | null; git_commit?: string | null; ci_url?: string | null };
    return { branch: release.branch || undefined, git_commit: release.git_commit || undefined, ci_url: release.ci_url || undefined };
  };

  // An app of its own (the shared Hangar holds other files' builds of the same package, whose
  // commits would enter --changelog-from-git): every upload here names it.
  const appName = uniqueName('Stamped');

  beforeAll(async () => {
    hangar = await sharedHangar();
    home = cliHome();
    env = { ...home.env, HANGAR_URL: hangar.baseUrl, HANGAR_TOKEN: hangar.adminToken };
    // A checkout the command is run in, and a build made somewhere else.
    repo = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-cli-stamp-repo-'));
    git('init', '-q', '-b', 'feature/stamps');
    git('commit', '-q', '--allow-empty', '-m', 'Only commit');
    elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-cli-stamp-build-'));
    fs.copyFileSync(apk, path.join(elsewhere, 'app.apk'));
  });

  afterAll(async () => {
    await hangar?.stop();
    home?.remove();
    for (const dir of [repo, elsewhere]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('when the file lies outside the checkout the command runs in, then no branch or commit is stamped, and it says why', async () => {
    const run = await runCli(['upload', '--name', appName, path.join(elsewhere, 'app.apk'), '--json'], env, { cwd: repo });
    expect(uploaded(run)).toEqual({ branch: undefined, git_commit: undefined, ci_url: undefined });
    expect(run.stderr).toContain(`hangar: app.apk lies outside the git checkout at ${fs.realpathSync(repo)}: no branch or commit stamped (give --branch and --git-commit for them)`);
  });

  it('when the file lies inside that checkout (ignored or not), then its branch and commit are stamped', async () => {
    fs.mkdirSync(path.join(repo, 'build'), { recursive: true });
    fs.copyFileSync(apk, path.join(repo, 'build', 'app.apk'));
    // From a subfolder, by a relative path: what a build script does.
    fs.mkdirSync(path.join(repo, 'scripts'), { recursive: true });
    const run = await runCli(['upload', '--name', appName, '../build/app.apk', '--json'], env, { cwd: path.join(repo, 'scripts') });
    expect(uploaded(run)).toEqual({ branch: 'feature/stamps', git_commit: git('rev-parse', 'HEAD'), ci_url: undefined });
    expect(run.stderr).not.toContain('lies outside the git checkout');
  });

  it('when --changelog-from-git is given for a file outside, then the checkout is the build\'s by the user\'s word and is stamped', async () => {
    const run = await runCli(['upload', '--name', appName, path.join(elsewhere, 'app.apk'), '--json', '--changelog-from-git'], env, { cwd: repo });
    expect(uploaded(run)).toEqual({ branch: 'feature/stamps', git_commit: git('rev-parse', 'HEAD'), ci_url: undefined });
  });

  it('when flags or a CI job name them, then those are stamped wherever the file lies', async () => {
    const byFlags = await runCli(['upload', '--name', appName, path.join(elsewhere, 'app.apk'), '--json', '--branch', 'release/2.0', '--git-commit', 'c0ffee'], env, { cwd: repo });
    expect(uploaded(byFlags)).toEqual({ branch: 'release/2.0', git_commit: 'c0ffee', ci_url: undefined });
    const inCi = await runCli(['upload', '--name', appName, path.join(elsewhere, 'app.apk'), '--json'], { ...env, GITLAB_CI: 'true', CI_COMMIT_BRANCH: 'main', CI_COMMIT_SHA: 'abcdef1', CI_JOB_URL: 'https://gitlab.example.com/jobs/7' }, { cwd: repo });
    expect(uploaded(inCi)).toEqual({ branch: 'main', git_commit: 'abcdef1', ci_url: 'https://gitlab.example.com/jobs/7' });
    expect(inCi.stderr).not.toContain('lies outside the git checkout');
  });
});
