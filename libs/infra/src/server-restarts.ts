import { RESTART_DELAY_MS } from './supervisor';

/**
 * `HANGAR_SERVER_RESTART_DELAY_MS`: how long after a crash a server the launcher started
 * (PostgreSQL, FerretDB, versitygw, nats-server) is started again — doubled with each crash in a
 * row, up to 30 s. Default 500 ms.
 */
export function serverRestartDelaySetting(env: NodeJS.ProcessEnv): number {
  const raw = env.HANGAR_SERVER_RESTART_DELAY_MS;
  if (!raw) return RESTART_DELAY_MS;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0 || ms > 30_000) throw new Error(`HANGAR_SERVER_RESTART_DELAY_MS must be a number of milliseconds from 0 to 30000, not ${raw}`);
  return ms;
}
