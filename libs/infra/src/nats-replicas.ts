import { SetupError } from './setup-error';

/**
 * `NATS_REPLICAS` under `npm run up`: the services read it themselves (libs/config
 * `natsReplicas`), but the nats-server the launcher starts, or finds on its port, is one node,
 * and JetStream refuses a stream of more copies than it has nodes — every service would fail at
 * start, one log each. Above 1 it needs `NATS_URL` naming a cluster; said once, before anything
 * starts.
 */
export function natsReplicasSetting(env: NodeJS.ProcessEnv): number {
  const raw = env.NATS_REPLICAS?.trim();
  if (!raw) return 1;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > 5) {
    throw new SetupError(`NATS_REPLICAS must be a whole number from 1 to 5 (got "${raw}").`);
  }
  if (value > 1 && !env.NATS_URL) {
    throw new SetupError(
      `NATS_REPLICAS=${value} needs a NATS cluster of at least ${value} nodes, and the nats-server npm run up starts is one: set NATS_URL to the cluster's servers (comma-separated), or leave NATS_REPLICAS unset.`,
    );
  }
  return value;
}
