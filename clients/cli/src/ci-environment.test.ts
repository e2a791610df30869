import { detectCi, isNonInteractive } from './ci-environment';

describe('detectCi', () => {
  it('when run by GitHub Actions on a pull request, then the head branch, the SHA and the run URL are taken', () => {
    expect(
      detectCi({
        GITHUB_ACTIONS: 'true',
        GITHUB_HEAD_REF: 'feature/login',
        GITHUB_REF_NAME: '42/merge',
        GITHUB_SHA: 'a1b2c3',
        GITHUB_SERVER_URL: 'https://github.example.com',
        GITHUB_REPOSITORY: 'acme/app',
        GITHUB_RUN_ID: '987',
      }),
    ).toEqual({ provider: 'GitHub Actions', branch: 'feature/login', gitCommit: 'a1b2c3', ciUrl: 'https://github.example.com/acme/app/actions/runs/987' });
  });

  it('when run by GitHub Actions on a push, then the ref name is the branch and github.com the default server', () => {
    expect(detectCi({ GITHUB_ACTIONS: 'true', GITHUB_HEAD_REF: '', GITHUB_REF_NAME: 'main', GITHUB_SHA: 'ff00', GITHUB_REPOSITORY: 'acme/app', GITHUB_RUN_ID: '1' })).toEqual({
      provider: 'GitHub Actions',
      branch: 'main',
      gitCommit: 'ff00',
      ciUrl: 'https://github.com/acme/app/actions/runs/1',
    });
  });

  it('when run by GitLab CI for a merge request, then its source branch, the SHA and the job URL are taken', () => {
    expect(
      detectCi({
        GITLAB_CI: 'true',
        CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'fix/crash',
        CI_COMMIT_REF_NAME: 'refs/merge-requests/7/head',
        CI_COMMIT_SHA: 'c0ffee',
        CI_JOB_URL: 'https://gitlab.example.com/acme/app/-/jobs/55',
        CI_PIPELINE_URL: 'https://gitlab.example.com/acme/app/-/pipelines/9',
      }),
    ).toEqual({ provider: 'GitLab CI', branch: 'fix/crash', gitCommit: 'c0ffee', ciUrl: 'https://gitlab.example.com/acme/app/-/jobs/55' });
  });

  it('when run by Jenkins, then GIT_BRANCH, GIT_COMMIT and BUILD_URL are taken (origin/ is the server\'s to strip)', () => {
    expect(detectCi({ JENKINS_URL: 'https://ci.example.com/', BUILD_URL: 'https://ci.example.com/job/app/12/', GIT_BRANCH: 'origin/develop', GIT_COMMIT: 'deadbeef' })).toEqual({
      provider: 'Jenkins',
      branch: 'origin/develop',
      gitCommit: 'deadbeef',
      ciUrl: 'https://ci.example.com/job/app/12/',
    });
  });

  it('when run by a Jenkins multibranch pipeline, then BRANCH_NAME wins over GIT_BRANCH', () => {
    expect(detectCi({ JENKINS_URL: 'x', BUILD_ID: '3', BRANCH_NAME: 'release/2.0', GIT_BRANCH: 'origin/release/2.0' })?.branch).toBe('release/2.0');
  });

  it('when run by CircleCI, then CIRCLE_BRANCH, CIRCLE_SHA1 and CIRCLE_BUILD_URL are taken', () => {
    expect(detectCi({ CIRCLECI: 'true', CIRCLE_BRANCH: 'main', CIRCLE_SHA1: '1234', CIRCLE_BUILD_URL: 'https://circleci.com/gh/acme/app/77' })).toEqual({
      provider: 'CircleCI',
      branch: 'main',
      gitCommit: '1234',
      ciUrl: 'https://circleci.com/gh/acme/app/77',
    });
  });

  it('when run by Bitrise, then its git branch, commit and build URL are taken', () => {
    expect(detectCi({ BITRISE_IO: 'true', BITRISE_GIT_BRANCH: 'main', BITRISE_GIT_COMMIT: 'abcd', BITRISE_BUILD_URL: 'https://app.bitrise.io/build/xyz' })).toEqual({
      provider: 'Bitrise',
      branch: 'main',
      gitCommit: 'abcd',
      ciUrl: 'https://app.bitrise.io/build/xyz',
    });
  });

  it('when Bitrise gives no BITRISE_GIT_COMMIT, then the clone step\'s commit is taken', () => {
    expect(detectCi({ BITRISE_IO: 'true', GIT_CLONE_COMMIT_HASH: '9999' })?.gitCommit).toBe('9999');
  });

  it('when run by Azure Pipelines, then refs/heads/ is dropped and the results URL is built from the collection, project and build id', () => {
    expect(
      detectCi({
        TF_BUILD: 'True',
        BUILD_SOURCEBRANCH: 'refs/heads/feature/x',
        BUILD_SOURCEBRANCHNAME: 'x',
        BUILD_SOURCEVERSION: 'beef',
        SYSTEM_COLLECTIONURI: 'https://dev.azure.com/acme/',
        SYSTEM_TEAMPROJECT: 'Mobile App',
        BUILD_BUILDID: '321',
      }),
    ).toEqual({ provider: 'Azure Pipelines', branch: 'feature/x', gitCommit: 'beef', ciUrl: 'https://dev.azure.com/acme/Mobile%20App/_build/results?buildId=321' });
  });

  it('when Azure Pipelines builds a pull request, then the source branch is taken', () => {
    expect(detectCi({ TF_BUILD: 'True', SYSTEM_PULLREQUEST_SOURCEBRANCH: 'refs/heads/topic', BUILD_SOURCEBRANCH: 'refs/pull/5/merge' })?.branch).toBe('topic');
  });

  it('when no CI variable is set, then nothing is detected', () => {
    expect(detectCi({ HOME: '/home/me', PATH: '/usr/bin', GIT_BRANCH: 'main' })).toBeUndefined();
  });

  it('when a variable is empty, then it is absent rather than an empty field', () => {
    expect(detectCi({ CIRCLECI: 'true', CIRCLE_BRANCH: '', CIRCLE_SHA1: '  ' })).toEqual({ provider: 'CircleCI' });
  });
});

describe('isNonInteractive', () => {
  it('when stderr is a terminal outside CI, then the run is interactive; in CI or without a terminal it is not', () => {
    expect(isNonInteractive({}, { isTTY: true })).toBe(false);
    expect(isNonInteractive({}, { isTTY: false })).toBe(true);
    expect(isNonInteractive({ CI: 'true' }, { isTTY: true })).toBe(true);
    expect(isNonInteractive({ GITLAB_CI: 'true' }, { isTTY: true })).toBe(true);
  });
});
