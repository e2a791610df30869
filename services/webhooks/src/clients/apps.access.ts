import { NotFound } from '@hangar/errors';
import type { ServiceClient } from '@hangar/grpc';
import type { apps } from '@hangar/proto';
import type { Actor, AppsAccess, ChannelContext } from '../domain/deps';

/** NotFound as "nothing there"; anything else (apps unavailable) goes up, so an event comes back later. */
async function orUndefined<T>(call: Promise<T>): Promise<T | undefined> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof NotFound) return undefined;
    throw err;
  }
}

/** The apps service over gRPC: the permission model and the app tree stay there. */
export class AppsServiceAccess implements AppsAccess {
  constructor(private readonly client: ServiceClient<typeof apps.AppsServiceDefinition>) {}

  async requireWebhookManager(actor: Actor, appId: number): Promise<void> {
    // PRODUCT §2: webhooks are for the app's admins (and global admins); a token limited to other apps is refused there too.
    await this.client.checkPermission({ actor, appId, action: 'webhooks.manage' });
  }

  async app(appId: number): Promise<{ id: number; name: string } | undefined> {
    const app = await orUndefined(this.client.describeApp({ id: appId }));
    return app ? { id: app.id, name: app.name } : undefined;
  }

  async channel(channelId: number): Promise<ChannelContext | undefined> {
    const found = await orUndefined(this.client.resolveChannel({ channelKey: '', channelId }));
    if (!found?.app || !found.scheme || !found.channel) return undefined;
    return {
      app: { id: found.app.id, name: found.app.name },
      scheme: { id: found.scheme.id, name: found.scheme.name, newBuildCallout: found.scheme.newBuildCallout },
      channel: { id: found.channel.id, slug: found.channel.slug, name: found.channel.name, deviceType: found.channel.deviceType },
    };
  }
}
