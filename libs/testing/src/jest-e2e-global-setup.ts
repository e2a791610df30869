import { execFileSync } from 'node:child_process';
import { REPO_ROOT } from '@hangar/infra';
import globalSetup from './jest-global-setup';

/** End-to-end runs start the built system: build once, then resolve the servers. */
export default async function e2eGlobalSetup(): Promise<void> {
  // `npm test` has just built (scripts/test.mjs says so): a second build would only check stamps.
  if (process.env.HANGAR_TEST_BUILT !== '1') execFileSync('npm', ['run', '--silent', 'build:unchecked'], { cwd: REPO_ROOT, stdio: 'inherit' });
  process.env.HANGAR_SKIP_BUILD = '1';
  await globalSetup();
}
