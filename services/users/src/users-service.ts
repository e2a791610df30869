import type { Connection } from 'mongoose';
import { GENERATION_KEYS, bumpAfterWrites, bumpingQuietly, openGenerations } from '@hangar/cache';
import type { OutboxRelay } from '@hangar/events';
import { type ShutdownRegistry } from '@hangar/grpc';
import { startService } from '@hangar/service';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
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
import type { UsersDeps } from './domain/deps';
import { usersHandlers } from './grpc/users.handlers';

/** RPCs that never write; every other one bumps the users generation. */
const USERS_READ_ONLY = new Set(['getUser', 'listUsers', 'searchUsers', 'getUsersByIds', 'authenticate', 'listTokens', 'listAuditEntries', 'authenticateSession', 'listSessions']);

export interface RunningUsersService {
  port: number;
  deps: UsersDeps;
  connection: Connection;
  relay: OutboxRelay;
  /** Every part in phase order (the skeleton's ShutdownRegistry): gRPC, audit consumer and retention, NATS, MongoDB. */
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
  /** main.ts's registry, so metrics and telemetry stop after the service. */
  shutdown?: ShutdownRegistry;
}

/** Wires the users service on the service skeleton: database, events, the audit log, gRPC. main.ts and the component tests both start it here. */
export async function startUsersService(config: UsersConfig, logger: Logger, metrics?: Metrics, options: UsersStartOptions = {}): Promise<RunningUsersService> {
  return startService({ name: 'users', config, logger, metrics, shutdown: options.shutdown }, async (service) => {
    const { connection, userDocs, tokenDocs, auditDocs, sessionDocs } = await service.connectMongo((c) => ({
      userDocs: userModel(c),
      tokenDocs: tokenModel(c),
      auditDocs: auditEntryModel(c),
      sessionDocs: sessionModel(c),
    }));
    const events = await service.startEvents({ outboxOf: [userDocs, auditDocs] });
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
    service.shutdown.register({ name: 'audit consumer', phase: 'work', stop: () => auditConsumer.stop() });
    const auditRetention = startAuditRetention(connection, deps.audit, { retentionDays: config.AUDIT_RETENTION_DAYS, intervalMs: config.AUDIT_SWEEP_INTERVAL_MS, logger });
    service.shutdown.register({ name: 'audit retention', phase: 'work', stop: () => auditRetention.stop() });

    // Gateways cache token → user; every write here must be seen by their next request.
    const generations = await openGenerations(events.bus.nc, config.NATS_SUBJECT_PREFIX);
    const bump = bumpingQuietly(generations, [GENERATION_KEYS.users], (err) => logger.warn({ err }, 'Could not bump the users generation; retrying'));

    service.serve(users.UsersServiceDefinition, bumpAfterWrites(usersHandlers(deps), USERS_READ_ONLY, bump));
    await options.beforeListening?.(deps);
    return { deps, connection, relay };
  });
}
