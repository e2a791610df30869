import mongoose, { Connection } from 'mongoose';
import type { Logger } from '@hangar/logger';
import { recordQueries } from './query-log';

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

/**
 * Opens the service's connection. Commands are not buffered while the server
 * is away: a request fails fast with Unavailable instead of hanging, and the
 * driver reconnects by itself when the server returns.
 */
export async function connectMongo({ url, dbName, logger, serverSelectionTimeoutMs = 3_000, queryLogDir }: MongoOptions): Promise<Connection> {
  if (queryLogDir) recordQueries(queryLogDir, dbName);
  const connection = mongoose.createConnection(url, {
    dbName,
    bufferCommands: false,
    serverSelectionTimeoutMS: serverSelectionTimeoutMs,
    // Bounds each connection's handshake and each of the monitor's checks of the server (the
    // driver's default is 30 s). One end-to-end run under load saw a service's database stay
    // unavailable for over a minute after FerretDB's restart, its server description never
    // refreshed, while every other service reconnected within seconds; a check hanging on the
    // restarted server is the likeliest cause, and this caps what one can cost.
    connectTimeoutMS: 10_000,
    // FerretDB 1.x and MongoDB 7 both build these; indexes are declared on the schemas.
    autoIndex: true,
  });
  connection.on('disconnected', () => logger.warn({ dbName }, 'MongoDB disconnected'));
  connection.on('reconnected', () => logger.info({ dbName }, 'MongoDB reconnected'));
  await connection.asPromise();
  logger.info({ dbName }, 'MongoDB connected');
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
