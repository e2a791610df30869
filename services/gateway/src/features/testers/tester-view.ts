import type { apps } from '@hangar/proto';
import type { ServiceClients } from '../../clients/service-clients';
import { formatTimestamp } from '../../http/timestamps';
import { deviceFit, listedProfile, type DeviceFit } from '../devices/device-fit';
import { presentDevice } from '../devices/device.presenter';

/** Builds each channel shows in the tester view: the newest; older ones are on the install pages. */
export const TESTER_VIEW_BUILDS = 20;

export interface TesterViewBuild {
  id: number;
  release_version: string;
  build_version: string;
  created_at: string;
  install_page: string;
  /** The tester's devices the build's profile leaves out (ad hoc and development builds). */
  left_out_devices: number[];
}

export interface TesterViewChannel {
  app_id: number;
  app_name: string;
  channel_id: number;
  name: string;
  device_type: string;
  builds: TesterViewBuild[];
}

export interface TesterView {
  email: string;
  channels: TesterViewChannel[];
  devices: ReturnType<typeof presentDevice>[];
  /** Per build id, how each device fares (only builds that restrict installs by device). */
  fits: Map<number, Map<number, DeviceFit>>;
}

/**
 * What a signed-in tester sees: each channel their groups open, with its newest builds and each
 * build's install page, and their registered devices with the builds that leave them out. Never a
 * channel key: it is the credential of the channel's API.
 */
export async function testerView(clients: ServiceClients, tester: apps.TesterIdentity): Promise<TesterView> {
  const [{ devices }, lists] = await Promise.all([
    clients.apps.listTesterDevices({ secret: '', sessionId: tester.sessionId }),
    Promise.all(tester.channels.map((channel) => clients.releases.listVersions({ channelKey: channel.slug, page: { page: 1, perPage: TESTER_VIEW_BUILDS } }))),
  ]);
  const fits = new Map<number, Map<number, DeviceFit>>();
  const channels = tester.channels.map((channel, index) => ({
    app_id: channel.appId,
    app_name: channel.appName,
    channel_id: channel.channelId,
    name: channel.channelName,
    device_type: channel.deviceType,
    builds: lists[index]!.releases.map((r) => {
      const profile = listedProfile(r);
      if (profile) fits.set(r.id, new Map(devices.map((d) => [d.id, deviceFit(profile, d.udid)])));
      return {
        id: r.id,
        release_version: r.releaseVersion,
        build_version: r.buildVersion,
        created_at: formatTimestamp(r.createdAtMs),
        install_page: `/releases/${r.id}`,
        left_out_devices: [...(fits.get(r.id) ?? [])].filter(([, fit]) => fit === 'out').map(([id]) => id),
      };
    }),
  }));
  return { email: tester.email, channels, devices: devices.map((d) => presentDevice(d)), fits };
}

/** The view as the API answers it. */
export function presentTesterView(view: TesterView) {
  return { email: view.email, channels: view.channels, devices: view.devices };
}
