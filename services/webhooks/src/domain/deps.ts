import type { common, releases } from '@hangar/proto';
import type { DeliveriesRepository } from '../data/deliveries.repository';
import type { WebhooksRepository } from '../data/webhooks.repository';
import type { WebhookDispatcher } from './dispatcher';
import type { SecretBox } from './secret-box';
import type { WebhookTargetPolicy } from './target-policy';

/** The caller, as the gateway authenticated it: handed to the apps service, which decides. */
export type Actor = common.Actor;

export interface ChannelContext {
  app: { id: number; name: string };
  scheme: { id: number; name: string; newBuildCallout: boolean };
  channel: { id: number; slug: string; name: string; deviceType: string };
}

/** The apps service as webhooks need it: who may manage an app's webhooks, and what a body names. */
export interface AppsAccess {
  /** Passes when the actor may manage the app's webhooks (admin on the app); NotFound when the app is gone, PermissionDenied otherwise. */
  requireWebhookManager(actor: Actor, appId: number): Promise<void>;
  /** The app's id and name; undefined when it is gone. */
  app(appId: number): Promise<{ id: number; name: string } | undefined>;
  /** The channel with its scheme and app; undefined when any of them is gone. */
  channel(channelId: number): Promise<ChannelContext | undefined>;
}

/** The releases service as the new-build callout needs it. */
export interface ReleaseSource {
  /** The release as the API shows it; undefined when it is gone. */
  release(id: number): Promise<releases.Release | undefined>;
}

export interface WebhooksDeps {
  webhooks: WebhooksRepository;
  deliveries: DeliveriesRepository;
  /** Where webhooks may send. */
  policy: WebhookTargetPolicy;
  /** How secrets are kept. */
  box: SecretBox;
  /** Who sends. */
  dispatcher: WebhookDispatcher;
  apps: AppsAccess;
  releases: ReleaseSource;
  /** Attempts of each delivery made from an event. */
  maxAttempts: number;
  /** Origin of the URLs in release bodies (PUBLIC_BASE_URL). */
  publicBaseUrl?: string;
  /** Time limit of the test call, inside the caller's gRPC deadline. */
  testTimeoutMs: number;
}
