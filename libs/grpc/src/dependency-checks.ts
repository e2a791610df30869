// What a service reports of its dependencies through the standard gRPC health service, and when
// it checks them: server.ts serves the answers, the gateway's /api/health asks for them.

/** What a service depends on, each reported under its own name by the standard gRPC health service. */
export const DEPENDENCIES = ['database', 'storage', 'events'] as const;
export type Dependency = (typeof DEPENDENCIES)[number];
/** The health service name of a dependency (`hangar.dependency.database`); the empty name stays the process itself. */
export const dependencyHealthName = (dependency: Dependency) => `hangar.dependency.${dependency}`;

/** A dependency's last result is answered as it is while younger than this; an older one is checked again. */
export const DEPENDENCY_RESULT_FRESH_MS = 1_000;
/** How long a health question waits for a check it started before it takes the last result. */
export const DEPENDENCY_CHECK_WAIT_MS = 300;
/** A check that has not answered by then counts as a dependency down. */
const DEPENDENCY_CHECK_TIMEOUT_MS = 2_000;

export interface DependencyChecks {
  /** Checks the dependency a health question names, when its last result is no longer fresh. */
  freshen(service: string): Promise<void>;
}

/**
 * Dependencies checked when someone asks (/api/health through the gateway, a probe), not on a
 * timer: checking each one every second cost an idle service a query, a NATS round trip and a
 * signed S3 request per second, and its database as much again. A question whose dependency's
 * last result is younger than DEPENDENCY_RESULT_FRESH_MS takes it; an older one starts a check
 * (one at a time per dependency) and waits for it up to DEPENDENCY_CHECK_WAIT_MS, else takes the
 * last result, so a slow check on a loaded machine never makes a probe late. Each is checked
 * once at the start, so the first question finds a result.
 */
export function dependencyChecks(
  checks: Partial<Record<Dependency, () => Promise<boolean>>>,
  report: (name: Dependency, ok: boolean) => void,
  now: () => number = Date.now,
): DependencyChecks {
  const watched = new Map(
    (Object.entries(checks) as [Dependency, () => Promise<boolean>][]).map(([name, check]) => [
      dependencyHealthName(name),
      { name, check, checkedAt: 0, running: undefined as Promise<void> | undefined },
    ]),
  );
  const start = (dependency: NonNullable<ReturnType<typeof watched.get>>): Promise<void> =>
    (dependency.running ??= withTimeout(dependency.check(), DEPENDENCY_CHECK_TIMEOUT_MS)
      .catch(() => false)
      .then((ok) => {
        dependency.checkedAt = now();
        report(dependency.name, ok);
      })
      .finally(() => (dependency.running = undefined)));
  // Unknown until the first check has answered (a probe then reads 'unavailable').
  for (const dependency of watched.values()) {
    report(dependency.name, false);
    void start(dependency);
  }
  return {
    async freshen(service) {
      const dependency = watched.get(service);
      if (!dependency || now() - dependency.checkedAt < DEPENDENCY_RESULT_FRESH_MS) return;
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, DEPENDENCY_CHECK_WAIT_MS).unref()));
      await Promise.race([start(dependency), waited]).finally(() => clearTimeout(timer));
    },
  };
}

function withTimeout(check: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms).unref()));
  return Promise.race([check, late]).finally(() => clearTimeout(timer));
}
