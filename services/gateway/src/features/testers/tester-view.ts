import type { apps } from '@hangar/proto';
import type { ServiceClients } from '../../clients/service-clients';
import { formatTimestamp } from '../../http/timestamps';

/** Builds each channel shows in the tester view: the newest; older ones are on the install pages. */
export const TESTER_VIEW_BUILDS = 20;

export interface TesterViewChannel {
  app_id: number;
  app_name: string;
  channel_id: number;
  name: string;
  device_type: string;
  builds: { id: number; release_version: string; build_version: string; created_at: string; install_page: string }[];
}

/**
 * What a signed-in tester sees: each channel their groups open, with its newest builds and each
 * build's install page. Never a channel key: it is the credential of the channel's API.
 */
export async function testerView(clients: ServiceClients, tester: apps.TesterIdentity): Promise<{ email: string; channels: TesterViewChannel[] }> {
  const channels = await Promise.all(
    tester.channels.map(async (channel) => {
      const list = await clients.releases.listVersions({ channelKey: channel.slug, page: { page: 1, perPage: TESTER_VIEW_BUILDS } });
      return {
        app_id: channel.appId,
        app_name: channel.appName,
        channel_id: channel.channelId,
        name: channel.channelName,
        device_type: channel.deviceType,
        builds: list.releases.map((r) => ({ id: r.id, release_version: r.releaseVersion, build_version: r.buildVersion, created_at: formatTimestamp(r.createdAtMs), install_page: `/releases/${r.id}` })),
      };
    }),
  );
  return { email: tester.email, channels };
}
