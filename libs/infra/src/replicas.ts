import { SetupError } from './setup-error';

/** Most processes of one kind `npm run up` starts: each is a whole Node process. */
export const MAX_REPLICAS = 8;

/**
 * `HANGAR_REPLICAS`: how many processes of every service and of the gateway
 * `npm run up` starts (1 when unset). The launcher's one setting of its own,
 * checked here as the services check theirs in their config schemas.
 */
export function replicasSetting(env: NodeJS.ProcessEnv): number {
  const raw = env.HANGAR_REPLICAS?.trim();
  if (!raw) return 1;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > MAX_REPLICAS) {
    throw new SetupError(`HANGAR_REPLICAS must be a whole number from 1 to ${MAX_REPLICAS} (got "${raw}").`);
  }
  return value;
}

/**
 * The name of one replica's files in the data dir (`logs/<name>.log`,
 * `run/<name>.pid`, `run/<name>.metrics-port`): the first keeps the bare
 * process name (what one replica always had), the others add their index —
 * `releases`, `releases.1`, `releases.2`.
 */
export function replicaName(process: string, index: number): string {
  return index === 0 ? process : `${process}.${index}`;
}

/** The environment variable that tells every process where a service's replicas are, e.g. DEBUG_FILES_GRPC_TARGET. */
export function grpcTargetVariable(service: string): string {
  return `${service.toUpperCase().replace(/-/g, '_')}_GRPC_TARGET`;
}
