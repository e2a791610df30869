import type { Infrastructure } from '@hangar/infra';
import { stopSharedHangars } from './shared-hangar';

type InfraHolder = { __hangarInfra?: Infrastructure };

/**
 * Stops the servers the global setup started. Every project with a global
 * setup also runs this teardown, so only the first call does the work.
 */
export default async function globalTeardown(): Promise<void> {
  // The end-to-end files' shared Hangars first: they use the servers stopped below.
  await stopSharedHangars();
  const holder = globalThis as InfraHolder;
  const infra = holder.__hangarInfra;
  holder.__hangarInfra = undefined;
  await infra?.stop();
}
