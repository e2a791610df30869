import type { Connection } from 'mongoose';
import { GENERATION_KEYS, Generations, ValidatedCache, bumpAfterWrites, bumpingQuietly, openGenerations } from '@hangar/cache';
import { OutboxRelay, startServiceEvents } from '@hangar/events';
import { createGrpcServer, createServiceClient } from '@hangar/grpc';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
import { connectMongo, countedMongoErrors, syncIndexes } from '@hangar/mongo';
import { apps, releases, users } from '@hangar/proto';
import { UsersDirectory } from './clients/users.directory';
import type { AppsConfig } from './config';
import { appModel } from './data/app.model';
import { AppsRepository } from './data/apps.repository';
import { channelModel } from './data/channel.model';
import { ChannelsRepository } from './data/channels.repository';
import { collaboratorModel } from './data/collaborator.model';
import { CollaboratorsRepository } from './data/collaborators.repository';
import { DeliveriesRepository } from './data/deliveries.repository';
import { attemptModel, deliveryModel } from './data/webhook-delivery.model';
import { webhookModel } from './data/webhook.model';
import { WebhooksRepository } from './data/webhooks.repository';
import { schemeModel } from './data/scheme.model';
import { SchemesRepository } from './data/schemes.repository';
import type { AppsDeps } from './domain/apps-deps';
import { userDeletedConsumer } from './events/user-deleted.consumer';
import { webhookEventConsumers } from './events/webhook-events.consumer';
import { appsHandlers } from './grpc/apps.handlers';
import { WebhookDispatcher } from './webhooks/dispatcher';
import { SecretBox } from './webhooks/secret-box';
import { WebhookTargetPolicy } from './webhooks/target-policy';

export interface RunningAppsService {
  port: number;
  deps: AppsDeps;
  connection: Connection;
  relay: OutboxRelay;
  dispatcher: WebhookDispatcher;
  /** The ordered shutdown: gRPC, consumers, webhook dispatcher, outbox, NATS, MongoDB. */
  stop(): Promise<void>;
}

/**
 * GetApp answered from memory while the apps and users generations are
 * unchanged: the permission check, the app's schemes, channels and
 * collaborators, and the collaborators' names from the users service are all
 * read again after any write to either. Keyed by the caller too, since what
 * the permission check decides depends on who asks.
 */
function cachingAppViews(handlers: apps.AppsServiceImplementation, generations: Generations, config: AppsConfig): apps.AppsServiceImplementation {
  if (config.APP_VIEW_CACHE_SIZE === 0) return handlers;
  const views = new ValidatedCache<apps.App>({ generations, capacity: config.APP_VIEW_CACHE_SIZE, maxAgeMs: config.CACHE_MAX_AGE_MS });
  const getApp = handlers.getApp.bind(handlers);
  return {
    ...handlers,
    // Keyed by everything that decides the answer: a token limited to other
    // apps must not be served what its user's unlimited token was.
    getApp: (req, context) =>
      views.get(
        `${req.actor?.userId ?? 0}:${req.actor?.role ?? ''}:${req.actor?.appLimit?.appIds.join(',') ?? '*'}:${req.id}`,
        [GENERATION_KEYS.apps, GENERATION_KEYS.users],
        async () => getApp(req, context),
      ),
  };
}

/** RPCs that never write; every other one bumps the apps generation. */
const APPS_READ_ONLY = new Set([
  'getApp',
  'listApps',
  'getScheme',
  'listSchemes',
  'getChannel',
  'listChannels',
  'listCollaborators',
  'getCollaborator',
  'resolveChannel',
  'checkPermission',
  'verifyChannelPassword',
  'getWebhook',
  'listWebhooks',
  'listDeliveries',
]);

/** Wires the apps service: database, events, users client, gRPC. main.ts and the component tests both start it here. */
export async function startAppsService(config: AppsConfig, logger: Logger, metrics?: Metrics): Promise<RunningAppsService> {
  const connection = await connectMongo({ url: config.MONGO_URL, dbName: config.MONGO_DB, logger, queryLogDir: config.HANGAR_QUERY_LOG_DIR });
  const appDocs = appModel(connection);
  const schemeDocs = schemeModel(connection);
  const channelDocs = channelModel(connection);
  const collaboratorDocs = collaboratorModel(connection);
  const webhookDocs = webhookModel(connection);
  const deliveryDocs = deliveryModel(connection);
  const attemptDocs = attemptModel(connection);
  await syncIndexes(connection);
  // A bad HANGAR_WEBHOOK_ALLOWED_HOSTS entry stops the start, before anything runs.
  const policy = new WebhookTargetPolicy(config.HANGAR_WEBHOOK_ALLOWED_HOSTS);
  const box = SecretBox.fromConfig(config.WEBHOOK_SECRET_KEY, logger);

  const events = await startServiceEvents({
    natsUrl: config.NATS_URL,
    name: 'apps',
    prefix: config.NATS_SUBJECT_PREFIX,
    logger,
    metrics,
    outboxOf: [appDocs, schemeDocs, channelDocs],
  });
  const { relay } = events;

  const usersClient = createServiceClient(users.UsersServiceDefinition, config.USERS_GRPC_TARGET, { defaultDeadlineMs: config.GRPC_DEADLINE_MS, metrics });
  const releasesClient = createServiceClient(releases.ReleasesServiceDefinition, config.RELEASES_GRPC_TARGET, { defaultDeadlineMs: config.GRPC_DEADLINE_MS, metrics });
  const deliveries = new DeliveriesRepository(connection, deliveryDocs, attemptDocs);
  const dispatcher = new WebhookDispatcher({
    deliveries,
    policy,
    box,
    logger,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    retryBaseMs: config.WEBHOOK_RETRY_BASE_MS,
    pollMs: config.WEBHOOK_POLL_MS,
    concurrency: config.WEBHOOK_CONCURRENCY,
    retentionDays: config.WEBHOOK_LOG_RETENTION_DAYS,
    metrics,
  });
  const deps: AppsDeps = {
    apps: new AppsRepository(connection, appDocs),
    schemes: new SchemesRepository(connection, schemeDocs),
    channels: new ChannelsRepository(connection, channelDocs),
    collaborators: new CollaboratorsRepository(connection, collaboratorDocs),
    users: new UsersDirectory(usersClient),
    onEventsRecorded: () => relay.poke(),
    hooks: {
      webhooks: new WebhooksRepository(connection, webhookDocs),
      deliveries,
      policy,
      box,
      dispatcher,
      testTimeoutMs: Math.max(100, Math.min(config.WEBHOOK_TIMEOUT_MS, config.GRPC_DEADLINE_MS - 1_000)),
    },
  };

  // Releases caches channel contexts: every write here is seen by its next request on any replica.
  const generations = await openGenerations(events.bus.nc, config.NATS_SUBJECT_PREFIX);
  const bump = bumpingQuietly(generations, [GENERATION_KEYS.apps], (err) => logger.warn({ err }, 'Could not bump the apps generation; retrying'));

  await events.consume(userDeletedConsumer(deps.collaborators, bump));
  const webhookEvents = webhookEventConsumers(deps, { releases: releasesClient, publicBaseUrl: config.PUBLIC_BASE_URL, maxAttempts: config.WEBHOOK_MAX_ATTEMPTS, logger });
  for (const handler of webhookEvents) await events.consume(handler);
  dispatcher.start();

  const server = createGrpcServer({ logger, classifiers: [countedMongoErrors(metrics)], metrics });
  server.add(apps.AppsServiceDefinition, bumpAfterWrites(cachingAppViews(appsHandlers(deps), generations, config), APPS_READ_ONLY, bump));
  const port = await server.listen(config.GRPC_LISTEN);

  return {
    port,
    deps,
    connection,
    relay,
    dispatcher,
    async stop() {
      await server.shutdown(Math.max(1_000, config.SHUTDOWN_TIMEOUT_MS - 2_000));
      // Deliveries a consumer records after this wait in the database for the next start.
      await dispatcher.stop();
      await events.stop();
      await connection.close();
    },
  };
}
