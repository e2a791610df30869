import type { Connection } from 'mongoose';
import { GENERATION_KEYS, bumpAfterWrites, bumpingQuietly, openGenerations } from '@hangar/cache';
import { OutboxRelay, startServiceEvents, natsReachable } from '@hangar/events';
import { createGrpcServer } from '@hangar/grpc';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
import { connectMongo, countedMongoErrors, syncIndexes, pingMongo } from '@hangar/mongo';
import { users } from '@hangar/proto';
import type { UsersConfig } from './config';
import { AuditEntriesRepository } from './data/audit-entries.repository';
import { auditEntryModel } from './data/audit-entry.model';
import { startAuditConsumer } from './events/audit.consumer';
import { startAuditRetention } from './jobs/audit-retention.job';
import { sessionModel } from './data/session.model';
import { SessionsRepository } from './data/sessions.repository';
import { tokenModel } from './data/token.model';
import { TokensRepository } from './data/tokens.repository';
import { userModel } from './data/user.model';
import { UsersRepository } from './data/users.repository';
import type { UsersDeps } from './domain/manage-users';
import { usersHandlers } from './grpc/users.handlers';

/** RPCs that never write; every other one bumps the users generation. */
const USERS_READ_ONLY = new Set(['getUser', 'listUsers', 'searchUsers', 'getUsersByIds', 'authenticate', 'listTokens', 'listAuditEntries', 'authenticateSession', 'listSessions']);

export interface RunningUsersService {
  port: number;
  deps: UsersDeps;
  connection: Connection;
  relay: OutboxRelay;
  /** The ordered shutdown: gRPC, outbox, NATS, MongoDB. */
  stop(): Promise<void>;
}

export interface UsersStartOptions {
  /**
   * Runs before the service listens, i.e. before its health says SERVING: main.ts makes the
   * bootstrap admin here, so the first request with its token finds it. Made after listening,
   * a launcher (or a Kubernetes readiness probe) could see the service ready and the token
   * refused for a moment: CI saw a 401 right after `npm run up`'s start once probes stopped
   * waiting out a reconnect backoff.
   */
  beforeListening?(deps: UsersDeps): Promise<void>;
}

/** Wires the users service: database, events, gRPC. main.ts and the component tests both start it here. */
export async function startUsersService(config: UsersConfig, logger: Logger, metrics?: Metrics, options: UsersStartOptions = {}): Promise<RunningUsersService> {
  const connection = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB, logger, queryLogDir: config.HANGAR_QUERY_LOG_DIR });
  const userDocs = userModel(connection);
  const tokenDocs = tokenModel(connection);
  const auditDocs = auditEntryModel(connection);
  const sessionDocs = sessionModel(connection);
  await syncIndexes(connection);

  const events = await startServiceEvents({ natsUrl: config.NATS_URL, natsReplicas: config.NATS_REPLICAS, name: 'users', prefix: config.NATS_SUBJECT_PREFIX, logger, metrics, outboxOf: [userDocs, auditDocs] });
  const { relay } = events;

  const deps: UsersDeps = {
    users: new UsersRepository(connection, userDocs),
    tokens: new TokensRepository(connection, tokenDocs),
    audit: new AuditEntriesRepository(auditDocs),
    sessions: new SessionsRepository(connection, sessionDocs),
    sessionTtlMs: config.SESSION_TTL_MS,
    onEventsRecorded: () => relay.poke(),
  };
  // The audit log: appended from the gateways' stream, pruned past its retention.
  const auditConsumer = await startAuditConsumer(deps, { bus: events.bus, prefix: config.NATS_SUBJECT_PREFIX, logger });
  const auditRetention = startAuditRetention(connection, deps.audit, { retentionDays: config.AUDIT_RETENTION_DAYS, intervalMs: config.AUDIT_SWEEP_INTERVAL_MS, logger });

  // Gateways cache token → user; every write here must be seen by their next request.
  const generations = await openGenerations(events.bus.nc, config.NATS_SUBJECT_PREFIX);
  const bump = bumpingQuietly(generations, [GENERATION_KEYS.users], (err) => logger.warn({ err }, 'Could not bump the users generation; retrying'));

  const server = createGrpcServer({ logger, classifiers: [countedMongoErrors(metrics)], metrics });
  server.add(users.UsersServiceDefinition, bumpAfterWrites(usersHandlers(deps), USERS_READ_ONLY, bump));
  await options.beforeListening?.(deps);
  // /api/health reports these (the gateway asks every service); checked once a second, not per probe.
  server.watchDependencies({ database: () => pingMongo(connection), events: () => natsReachable(events.bus.nc) });
  const port = await server.listen(config.GRPC_LISTEN);

  return {
    port,
    deps,
    connection,
    relay,
    async stop() {
      await server.shutdown(Math.max(1_000, config.SHUTDOWN_TIMEOUT_MS - 2_000));
      auditRetention.stop();
      await auditConsumer.stop();
      await events.stop();
      await connection.close();
    },
  };
}
