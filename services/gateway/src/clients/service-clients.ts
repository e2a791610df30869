import { Dependency, ServiceClient, checkDependencies, checkHealth, createServiceChannel } from '@hangar/grpc';
import { createServiceClient } from '@hangar/grpc';
import type { Metrics } from '@hangar/metrics';
import { apps, debugFiles, releases, users, webhooks } from '@hangar/proto';

export interface ServiceTargets {
  users: string;
  apps: string;
  releases: string;
  debugFiles: string;
  webhooks: string;
}

/**
 * Typed, promise-returning clients of the services. Deadlines, the request
 * id and error translation are set once in @hangar/grpc's client factory.
 */
export interface ServiceClients {
  users: ServiceClient<typeof users.UsersServiceDefinition>;
  apps: ServiceClient<typeof apps.AppsServiceDefinition>;
  releases: ServiceClient<typeof releases.ReleasesServiceDefinition>;
  debugFiles: ServiceClient<typeof debugFiles.DebugFilesServiceDefinition>;
  webhooks: ServiceClient<typeof webhooks.WebhooksServiceDefinition>;
  /**
   * Standard gRPC health of every service, and what each that answers says of its
   * dependencies (MongoDB, S3, NATS), for /api/health.
   */
  health(): Promise<ServicesHealth>;
}

export interface ServicesHealth {
  services: Record<keyof ServiceTargets, boolean>;
  /** Per service that answered: its dependencies, true when reachable (absent: it has none of that kind). */
  dependencies: Partial<Record<Dependency, boolean>>[];
}

export function createServiceClients(targets: ServiceTargets, deadlineMs: number, metrics?: Metrics): ServiceClients {
  const channels = {
    users: createServiceChannel(targets.users),
    apps: createServiceChannel(targets.apps),
    releases: createServiceChannel(targets.releases),
    debugFiles: createServiceChannel(targets.debugFiles),
    webhooks: createServiceChannel(targets.webhooks),
  };
  return {
    users: createServiceClient(users.UsersServiceDefinition, channels.users, { defaultDeadlineMs: deadlineMs, metrics }),
    apps: createServiceClient(apps.AppsServiceDefinition, channels.apps, { defaultDeadlineMs: deadlineMs, metrics }),
    releases: createServiceClient(releases.ReleasesServiceDefinition, channels.releases, { defaultDeadlineMs: deadlineMs, metrics }),
    debugFiles: createServiceClient(debugFiles.DebugFilesServiceDefinition, channels.debugFiles, { defaultDeadlineMs: deadlineMs, metrics }),
    webhooks: createServiceClient(webhooks.WebhooksServiceDefinition, channels.webhooks, { defaultDeadlineMs: deadlineMs, metrics }),
    async health() {
      const names = Object.keys(channels) as (keyof ServiceTargets)[];
      const results = await Promise.all(
        names.map(async (name) => {
          const serving = await checkHealth(channels[name]);
          return { serving, dependencies: serving ? await checkDependencies(channels[name]) : undefined };
        }),
      );
      return {
        services: Object.fromEntries(names.map((name, i) => [name, results[i]!.serving])) as Record<keyof ServiceTargets, boolean>,
        dependencies: results.flatMap((result) => (result.dependencies ? [result.dependencies] : [])),
      };
    },
  };
}
