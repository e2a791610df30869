/** What a CI system tells a job about the build it runs, in the names Hangar's upload takes. */
export interface CiBuild {
  provider: string;
  branch?: string;
  gitCommit?: string;
  ciUrl?: string;
}

type Env = NodeJS.ProcessEnv;

const nonEmpty = (...values: (string | undefined)[]): string | undefined => values.map((v) => v?.trim()).find((v) => v) || undefined;
const withoutRefsHeads = (ref: string | undefined) => ref?.replace(/^refs\/heads\//, '');

interface Provider {
  name: string;
  detects(env: Env): boolean;
  read(env: Env): Omit<CiBuild, 'provider'>;
}

/**
 * Each provider's documented variables. A pull or merge request's source branch
 * is preferred to the merge ref the CI checks out, since that is the branch a
 * tester recognises.
 */
const PROVIDERS: Provider[] = [
  {
    name: 'GitHub Actions',
    detects: (env) => env.GITHUB_ACTIONS === 'true',
    read: (env) => ({
      branch: nonEmpty(env.GITHUB_HEAD_REF, env.GITHUB_REF_NAME),
      gitCommit: nonEmpty(env.GITHUB_SHA),
      ciUrl:
        env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
          ? `${(env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '')}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
          : undefined,
    }),
  },
  {
    name: 'GitLab CI',
    detects: (env) => env.GITLAB_CI === 'true',
    read: (env) => ({
      branch: nonEmpty(env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME, env.CI_COMMIT_BRANCH, env.CI_COMMIT_REF_NAME),
      gitCommit: nonEmpty(env.CI_COMMIT_SHA),
      ciUrl: nonEmpty(env.CI_JOB_URL, env.CI_PIPELINE_URL),
    }),
  },
  {
    name: 'Bitrise',
    detects: (env) => env.BITRISE_IO === 'true' || Boolean(env.BITRISE_BUILD_URL),
    read: (env) => ({
      branch: nonEmpty(env.BITRISE_GIT_BRANCH),
      gitCommit: nonEmpty(env.BITRISE_GIT_COMMIT, env.GIT_CLONE_COMMIT_HASH),
      ciUrl: nonEmpty(env.BITRISE_BUILD_URL),
    }),
  },
  {
    name: 'CircleCI',
    detects: (env) => env.CIRCLECI === 'true',
    read: (env) => ({ branch: nonEmpty(env.CIRCLE_BRANCH), gitCommit: nonEmpty(env.CIRCLE_SHA1), ciUrl: nonEmpty(env.CIRCLE_BUILD_URL) }),
  },
  {
    name: 'Azure Pipelines',
    detects: (env) => env.TF_BUILD?.toLowerCase() === 'true',
    read: (env) => ({
      branch: nonEmpty(withoutRefsHeads(env.SYSTEM_PULLREQUEST_SOURCEBRANCH), withoutRefsHeads(env.BUILD_SOURCEBRANCH), env.BUILD_SOURCEBRANCHNAME),
      gitCommit: nonEmpty(env.BUILD_SOURCEVERSION),
      ciUrl:
        env.SYSTEM_COLLECTIONURI && env.SYSTEM_TEAMPROJECT && env.BUILD_BUILDID
          ? `${env.SYSTEM_COLLECTIONURI.replace(/\/+$/, '')}/${encodeURIComponent(env.SYSTEM_TEAMPROJECT)}/_build/results?buildId=${env.BUILD_BUILDID}`
          : undefined,
    }),
  },
  {
    // Last: Jenkins sets only generic names, and other systems' agents sometimes run under it.
    name: 'Jenkins',
    detects: (env) => Boolean(env.JENKINS_URL || env.JENKINS_HOME) && Boolean(env.BUILD_URL || env.BUILD_ID),
    read: (env) => ({
      branch: nonEmpty(env.CHANGE_BRANCH, env.BRANCH_NAME, env.GIT_LOCAL_BRANCH, env.GIT_BRANCH),
      gitCommit: nonEmpty(env.GIT_COMMIT),
      ciUrl: nonEmpty(env.BUILD_URL),
    }),
  },
];

/** The CI system this process runs under, with the build facts it gives; undefined outside CI. */
export function detectCi(env: Env = process.env): CiBuild | undefined {
  const provider = PROVIDERS.find((p) => p.detects(env));
  if (!provider) return undefined;
  const facts = provider.read(env);
  const build: CiBuild = { provider: provider.name };
  if (facts.branch) build.branch = facts.branch;
  if (facts.gitCommit) build.gitCommit = facts.gitCommit;
  if (facts.ciUrl) build.ciUrl = facts.ciUrl;
  return build;
}

/** True when nobody is there to watch: a CI job, or output that is not a terminal. */
export function isNonInteractive(env: Env, stream: { isTTY?: boolean }): boolean {
  return !stream.isTTY || env.CI === 'true' || env.CI === '1' || detectCi(env) !== undefined;
}
