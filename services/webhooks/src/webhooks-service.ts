import type { Connection } from 'mongoose';
import { type ShutdownRegistry, checkHealth, createServiceClient } from '@hangar/grpc';
import { startService } from '@hangar/service';
import type { Logger } from '@hangar/logger';
import type { Metrics } from '@hangar/metrics';
import { apps, releases, webhooks } from '@hangar/proto';
import { AppsLegacyWebhooks } from './clients/apps-legacy-webhooks';
import { AppsServiceAccess } from './clients/apps.access';
import { mailTransportFrom } from './mail/mail-transport';
import { testerInvitedConsumer } from './mail/tester-invited.consumer';
import { newBuildMailConsumer } from './mail/new-build.consumer';
import { mailSendModel } from './data/mail-send.model';
import { MailSendsRepository } from './data/mail-sends.repository';
import { ReleasesServiceSource } from './clients/releases.source';
import type { WebhooksConfig } from './config';
import { DeliveriesRepository } from './data/deliveries.repository';
import { LegacyImportRepository } from './data/legacy-import.repository';
import { attemptModel, deliveryModel } from './data/webhook-delivery.model';
import { webhookModel } from './data/webhook.model';
import { WebhooksRepository } from './data/webhooks.repository';
import { WebhookDispatcher } from './domain/dispatcher';
import { WEBHOOK_EVENTS } from './domain/manage-webhooks';
import { moveWebhooksFromApps } from './domain/move-from-apps';
import { SecretBox } from './domain/secret-box';
import { WebhookTargetPolicy } from './domain/target-policy';
import type { WebhooksDeps } from './domain/deps';
import { takeOverLegacyDurables } from './events/durable-handover';
import { WEBHOOKS_DURABLE, webhookEventConsumers } from './events/webhook-events.consumer';
import { webhooksHandlers } from './grpc/webhooks.handlers';

export interface RunningWebhooksService {
  port: number;
  deps: WebhooksDeps;
  connection: Connection;
  dispatcher: WebhookDispatcher;
  /** Every part in phase order (the skeleton's ShutdownRegistry): gRPC, webhook dispatcher, consumers, NATS, MongoDB. */
  stop(): Promise<void>;
}

/** Wires the webhooks service on the service skeleton: database, the move from apps, events, dispatcher, gRPC. main.ts and the component tests both start it here. */
export async function startWebhooksService(config: WebhooksConfig, logger: Logger, metrics?: Metrics, options: { shutdown?: ShutdownRegistry } = {}): Promise<RunningWebhooksService> {
  return startService({ name: 'webhooks', config, logger, metrics, shutdown: options.shutdown }, async (service) => {
    const { connection, webhookDocs, deliveryDocs, attemptDocs, mailSendDocs } = await service.connectMongo((c) => ({
      webhookDocs: webhookModel(c),
      deliveryDocs: deliveryModel(c),
      attemptDocs: attemptModel(c),
      mailSendDocs: mailSendModel(c),
    }));
    // A bad HANGAR_WEBHOOK_ALLOWED_HOSTS entry stops the start, before anything runs.
    const policy = new WebhookTargetPolicy(config.HANGAR_WEBHOOK_ALLOWED_HOSTS);
    const box = SecretBox.fromConfig(config.WEBHOOK_SECRET_KEY, logger);

    const clientOptions = { defaultDeadlineMs: config.GRPC_DEADLINE_MS, metrics };
    const appsClient = createServiceClient(apps.AppsServiceDefinition, config.APPS_GRPC_TARGET, clientOptions);
    const releasesClient = createServiceClient(releases.ReleasesServiceDefinition, config.RELEASES_GRPC_TARGET, clientOptions);

    // Before anything is served or sent: webhooks and deliveries the apps service kept come here first.
    const imports = new LegacyImportRepository(connection, webhookDocs, deliveryDocs, attemptDocs);
    await new AppsLegacyWebhooks(appsClient, logger, config.MIGRATION_RETRY_MS, () => checkHealth(config.APPS_GRPC_TARGET)).untilMoved((source) => moveWebhooksFromApps(imports, source, logger));

    // Nothing here is published: this service only consumes.
    const events = await service.startEvents({ outboxOf: [] });
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
    const deps: WebhooksDeps = {
      webhooks: new WebhooksRepository(connection, webhookDocs),
      deliveries,
      policy,
      box,
      dispatcher,
      apps: new AppsServiceAccess(appsClient),
      releases: new ReleasesServiceSource(releasesClient),
      maxAttempts: config.WEBHOOK_MAX_ATTEMPTS,
      ...(config.PUBLIC_BASE_URL ? { publicBaseUrl: config.PUBLIC_BASE_URL } : {}),
      testTimeoutMs: Math.max(100, Math.min(config.WEBHOOK_TIMEOUT_MS, config.GRPC_DEADLINE_MS - 1_000)),
    };

    await takeOverLegacyDurables(events.bus, config.NATS_SUBJECT_PREFIX, WEBHOOKS_DURABLE, WEBHOOK_EVENTS, logger);
    for (const handler of webhookEventConsumers(deps, logger)) await events.consume(handler);
    const mail = mailTransportFrom(config, logger);
    logger.info({ mailTo: mail.description }, 'e-mail to testers goes to %s', mail.description);
    await events.consume(testerInvitedConsumer(appsClient, mail, logger));
    await events.consume(
      newBuildMailConsumer({
        apps: appsClient,
        releases: deps.releases,
        sends: new MailSendsRepository(mailSendDocs),
        transport: mail,
        logger,
        concurrency: config.MAIL_CONCURRENCY,
        ...(config.PUBLIC_BASE_URL ? { publicBaseUrl: config.PUBLIC_BASE_URL } : {}),
      }),
    );
    dispatcher.start();
    // Before the consumers stop (events phase): deliveries a consumer records after this wait in the database for the next start.
    service.shutdown.register({ name: 'webhook dispatcher', phase: 'work', stop: () => dispatcher.stop() });

    service.serve(webhooks.WebhooksServiceDefinition, webhooksHandlers(deps));
    return { deps, connection, dispatcher };
  });
}
