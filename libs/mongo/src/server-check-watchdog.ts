import type { ConnectOptions, Connection, mongo } from 'mongoose';
import type { Logger } from '@hangar/logger';

/**
 * Replaces a connection's driver client whose server monitor has stopped checking the server.
 *
 * Why: the driver checks its server every `heartbeatFrequencyMS` (every 0.5 s while an operation
 * waits for one), and each check ends, passed or failed, within `connectTimeoutMS`. Twice in the
 * end-to-end runs (server-crashes, under load: 2026-11-29 and 2026-11-30) one service's checks
 * stopped for good after FerretDB's restart: its server stayed marked unknown with the error that
 * the restart caused, no check ran again, and every request it served was a 503 for minutes
 * while the other services reconnected within seconds. Silence longer than any check can take is
 * the sign: the watchdog then closes the client and opens a new one on the same connection (the
 * models follow it), logging the old monitor's state so the cause can be found.
 *
 * A server that is down keeps the checks going (each fails and is tried again), so an outage,
 * however long, replaces nothing.
 */
export interface ServerCheckWatchdogOptions {
  url: string;
  /** The options the connection was opened with: a new client gets the same. */
  options: ConnectOptions;
  logger: Logger;
  /** Silence after which the checks count as stopped: longer than a check can take (connectTimeoutMS + heartbeatFrequencyMS). */
  stalledAfterMs: number;
  /** How often the silence is measured. */
  everyMs: number;
}

/** The events of a server check: its start and its end, passed or failed. */
const CHECK_EVENTS = ['serverHeartbeatStarted', 'serverHeartbeatSucceeded', 'serverHeartbeatFailed'] as const;

export function watchServerChecks(connection: Connection, { url, options, logger, stalledAfterMs, everyMs }: ServerCheckWatchdogOptions): { stop(): void } {
  let lastCheckAt = Date.now();
  let watched: mongo.MongoClient | undefined;
  let replacing = false;
  let stopped = false;
  const checked = () => {
    lastCheckAt = Date.now();
  };
  // After a replacement the connection holds a new client: listen to that one.
  const follow = () => {
    const client = connection.getClient();
    if (client === watched) return;
    for (const event of CHECK_EVENTS) {
      watched?.off(event, checked);
      client.on(event, checked);
    }
    watched = client;
    lastCheckAt = Date.now();
  };
  follow();

  const replace = async (silentMs: number) => {
    replacing = true;
    logger.error({ dbName: connection.name, silentMs, monitors: monitorStates(watched) }, 'MongoDB client stopped checking its server; replacing it');
    try {
      // Not forced: mongoose refuses every later operation of a force-closed connection, reopened or not.
      await connection.close();
      if (stopped) return;
      await connection.openUri(url, options);
      follow();
      logger.warn({ dbName: connection.name }, 'MongoDB client replaced');
    } catch (err) {
      logger.error({ err, dbName: connection.name }, 'replacing the MongoDB client failed; will try again');
    } finally {
      replacing = false;
      lastCheckAt = Date.now();
    }
  };

  const timer = setInterval(() => {
    if (stopped || replacing) return;
    follow();
    const silentMs = Date.now() - lastCheckAt;
    if (silentMs >= stalledAfterMs) void replace(silentMs);
  }, everyMs);
  timer.unref();

  const stop = () => {
    stopped = true;
    clearInterval(timer);
    for (const event of CHECK_EVENTS) watched?.off(event, checked);
  };
  // The service closing its connection (at shutdown) ends the watch; the watchdog's own close does not.
  connection.on('close', () => {
    if (!replacing) stop();
  });
  return { stop };
}

/** The driver's view of each server and its monitor, for the log line: internal fields, read defensively. */
function monitorStates(client: mongo.MongoClient | undefined): unknown {
  try {
    const servers = (client as unknown as { topology?: { s?: { servers?: Map<string, InternalServer> } } })?.topology?.s?.servers;
    return [...(servers?.values() ?? [])].map((server) => ({
      address: server.description?.address,
      type: server.description?.type,
      error: server.description?.error?.message,
      monitorState: server.monitor?.s?.state,
      monitorTimer: server.monitor?.monitorId?.toJSON?.(),
    }));
  } catch {
    return 'unreadable';
  }
}

interface InternalServer {
  description?: { address?: string; type?: string; error?: { message?: string } };
  monitor?: { s?: { state?: string }; monitorId?: { toJSON?: () => unknown } };
}
