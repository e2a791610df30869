import type { AppsRepository } from '../data/apps.repository';
import type { ChannelsRepository } from '../data/channels.repository';
import type { CollaboratorsRepository } from '../data/collaborators.repository';
import type { DeliveriesRepository } from '../data/deliveries.repository';
import type { WebhooksRepository } from '../data/webhooks.repository';
import type { WebhookDispatcher } from '../webhooks/dispatcher';
import type { SecretBox } from '../webhooks/secret-box';
import type { WebhookTargetPolicy } from '../webhooks/target-policy';
import type { SchemesRepository } from '../data/schemes.repository';

export interface UserSummary {
  id: number;
  username: string;
  email: string;
}

/** The users service as this service needs it: who a user id is. */
export interface UserDirectory {
  /** Users that exist, by id; unknown and deleted ids are absent. */
  lookup(ids: number[]): Promise<Map<number, UserSummary>>;
}

/** Webhooks: records, where they may send, how secrets are kept, who sends. */
export interface WebhookDeps {
  webhooks: WebhooksRepository;
  deliveries: DeliveriesRepository;
  policy: WebhookTargetPolicy;
  box: SecretBox;
  dispatcher: WebhookDispatcher;
  /** Time limit of the test call, inside the caller's gRPC deadline. */
  testTimeoutMs: number;
}

export interface AppsDeps {
  apps: AppsRepository;
  schemes: SchemesRepository;
  channels: ChannelsRepository;
  collaborators: CollaboratorsRepository;
  users: UserDirectory;
  /** Called after a write that recorded events, so they go out at once. */
  onEventsRecorded: () => void;
  hooks: WebhookDeps;
}
