import mongoose, { ConnectOptions, Connection } from 'mongoose';
import type { Logger } from '@hangar/logger';
import { recordQueries } from './query-log';
import { watchServerChecks } from './server-check-watchdog';

export interface MongoOptions {
  url: string;
  /** Each service owns its own database; no service reads another's. */
  dbName: string;
  logger: Logger;
  /** How long an operation waits for a server before failing (→ 503). */
  serverSelectionTimeoutMs?: number;
  /** Tests only: where to record query shapes for the plan check. */
  queryLogDir?: string;
}

/** Bounds each connection's handshake and each of the monitor's checks of the server (the driver's default is 30 s). */
const CONNECT_TIMEOUT_MS = 10_000;
/** How often the driver checks its server while all is well (its default, written out: the watchdog's limit is computed from it). */
const HEARTBEAT_FREQUENCY_MS = 10_000;

/**
 * Opens the service's connection. Commands are not buffered while the server
 * is away: a request fails fast with Unavailable instead of hanging, and the
 * driver reconnects by itself when the server returns — or, should its checks
 * of the server stop, a watchdog replaces its client (server-check-watchdog.ts).
 */
export async function connectMongo({ url, dbName, logger, serverSelectionTimeoutMs = 3_000, queryLogDir }: MongoOptions): Promise<Connection> {
  if (queryLogDir) recordQueries(queryLogDir, dbName);
  const options: ConnectOptions = {
    dbName,
    bufferCommands: false,
    serverSelectionTimeoutMS: serverSelectionTimeoutMs,
    heartbeatFrequencyMS: HEARTBEAT_FREQUENCY_MS,
    connectTimeoutMS: CONNECT_TIMEOUT_MS,
    // FerretDB 1.x and MongoDB 7 both build these; indexes are declared on the schemas.
    autoIndex: true,
  };
  const connection = mongoose.createConnection(url, options);
  connection.on('disconnected', () => logger.warn({ dbName }, 'MongoDB disconnected'));
  connection.on('reconnected', () => logger.info({ dbName }, 'MongoDB reconnected'));
  await connection.asPromise();
  logger.info({ dbName }, 'MongoDB connected');
  // A working monitor is never silent longer than one check (its timeout) and the pause before the next; 10 s more is slack for a busy process.
  watchServerChecks(connection, { url, options, logger, stalledAfterMs: CONNECT_TIMEOUT_MS + HEARTBEAT_FREQUENCY_MS + 10_000, everyMs: 5_000 });
  return connection;
}

/** Waits for every model's indexes, so a unique rule holds from the first request. */
export async function syncIndexes(connection: Connection): Promise<void> {
  await Promise.all(Object.values(connection.models).map((model) => model.init()));
}

export async function pingMongo(connection: Connection): Promise<boolean> {
  try {
    await connection.db?.command({ ping: 1 });
    return true;
  } catch {
    return false;
  }
}
