import fs from 'node:fs';
import path from 'node:path';
import type { CiBuild } from './ci-environment';
import { localCheckout, workTreeOf } from './git-history';

export interface Provenance {
  branch?: string;
  gitCommit?: string;
  ciUrl?: string;
}

export interface ProvenanceSources {
  /** --branch, --git-commit, --ci-url: what the user said, always taken. */
  flags: Provenance;
  /** What the CI system says of the job (ci-environment.ts), when there is one. */
  ci: CiBuild | undefined;
  /** The file being uploaded. */
  file: string;
  /** The current directory, whose git checkout may be the build's. */
  cwd: string;
  /** --changelog-from-git: the user said the build is of this checkout's history. */
  fromGit: boolean;
}

/**
 * The branch, commit and CI URL stamped on an uploaded build. Flags win, then the CI job's
 * variables. The current directory's checkout is used only when it is the build's: the file
 * lies inside its work tree, or --changelog-from-git says so (and the next changelog needs the
 * commit). Anything else — `npx hangar` run inside the Hangar clone, or any other checkout, on a
 * build from elsewhere — would stamp a branch and commit the build never came from.
 */
export function buildProvenance({ flags, ci, file, cwd, fromGit }: ProvenanceSources): Provenance & { checkoutSkipped?: string } {
  const needCheckout = !(flags.branch ?? ci?.branch) || !(flags.gitCommit ?? ci?.gitCommit);
  let checkout: Provenance = {};
  let checkoutSkipped: string | undefined;
  if (needCheckout) {
    const workTree = workTreeOf(cwd);
    if (workTree && (fromGit || isInside(file, workTree))) checkout = localCheckout(cwd);
    else if (workTree) checkoutSkipped = workTree;
  }
  const result: Provenance & { checkoutSkipped?: string } = {};
  const branch = flags.branch ?? ci?.branch ?? checkout.branch;
  const gitCommit = flags.gitCommit ?? ci?.gitCommit ?? checkout.gitCommit;
  const ciUrl = flags.ciUrl ?? ci?.ciUrl;
  if (branch !== undefined) result.branch = branch;
  if (gitCommit !== undefined) result.gitCommit = gitCommit;
  if (ciUrl !== undefined) result.ciUrl = ciUrl;
  if (checkoutSkipped) result.checkoutSkipped = checkoutSkipped;
  return result;
}

/** Whether `file` lies under `dir`, both with their symbolic links resolved (macOS's /tmp is /private/tmp). */
function isInside(file: string, dir: string): boolean {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  const relative = path.relative(real(dir), real(file));
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
