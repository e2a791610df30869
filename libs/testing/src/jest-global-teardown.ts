import type { Infrastructure } from '@hangar/infra';

type InfraHolder = { __hangarInfra?: Infrastructure };

/**
 * Stops the servers the global setup started. Every project with a global
 * setup also runs this teardown, so only the first call does the work.
 */
export default async function globalTeardown(): Promise<void> {
  const holder = globalThis as InfraHolder;
  const infra = holder.__hangarInfra;
  holder.__hangarInfra = undefined;
  await infra?.stop();
}
