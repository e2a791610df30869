import { Type } from '@sinclair/typebox';
import { Unauthenticated } from '@hangar/errors';
import { READ } from '../../auth/token-scopes';
import { actorOf } from '../../http/authenticate.middleware';
import { READ_WITH_TOKEN, TESTER_COOKIE, errors, ok, ref } from '../../openapi/openapi-parts';
import { idParam, operation } from '../../operations/declare';
import { readTesterCookie } from '../testers/tester-session';
import { appleDeviceList, deviceFit, listedProfile } from './device-fit';
import { presentDevice } from './device.presenter';

const TAG = 'Testers';
const device = { id: idParam('Device id') };

function testerSecret(req: Parameters<typeof readTesterCookie>[0]): string {
  const secret = readTesterCookie(req);
  if (!secret) throw new Unauthenticated('Not signed in as a tester: open the sign-in link of your invitation');
  return secret;
}

/** A tester's own devices (their cookie), and for an app's admins the devices a channel's newest build leaves out. */
export const deviceOperations = [
  operation({
    method: 'patch',
    path: '/api/tester/devices/{id}',
    operationId: 'renameTesterDevice',
    tag: TAG,
    summary: "Name one of the signed-in tester's devices",
    scopes: null,
    params: device,
    body: { fields: { name: Type.String({ description: 'At most 60 characters' }) }, required: ['name'] },
    responses: { '200': ok('The device', ref('TesterDevice')), ...errors(401, 404, 422, 503) },
    openApi: { security: TESTER_COOKIE },
    async handle({ body, clients, params, req, res }) {
      res.json(presentDevice(await clients.apps.renameTesterDevice({ secret: testerSecret(req), deviceId: params.id, name: body.name ?? '' })));
    },
  }),
  operation({
    method: 'delete',
    path: '/api/tester/devices/{id}',
    operationId: 'removeTesterDevice',
    tag: TAG,
    summary: "Remove one of the signed-in tester's devices",
    scopes: null,
    params: device,
    responses: { '204': { description: 'Removed' }, ...errors(401, 404, 503) },
    openApi: { security: TESTER_COOKIE },
    async handle({ clients, params, req, res }) {
      await clients.apps.removeTesterDevice({ secret: testerSecret(req), deviceId: params.id });
      res.status(204).end();
    },
  }),
  operation({
    method: 'get',
    path: '/api/channels/{id}/tester_devices',
    operationId: 'listChannelTesterDevices',
    tag: TAG,
    summary: "The devices of the channel's testers, and which of them its newest build's provisioning profile leaves out (with Apple's device list file of those)",
    scopes: READ,
    params: { id: idParam('Channel id') },
    responses: { '200': ok('The devices', ref('ChannelTesterDevices')), ...errors(...READ_WITH_TOKEN) },
    async handle({ clients, params, req, res }) {
      const { channelSlug, devices } = await clients.apps.listChannelTesterDevices({ actor: actorOf(req), channelId: params.id });
      const latest = (await clients.releases.listVersions({ channelKey: channelSlug, page: { page: 1, perPage: 1 } })).releases[0];
      const profile = latest ? listedProfile(latest) : null;
      const rows = devices.map((d) => ({ ...presentDevice(d, true), in_latest_build: profile ? deviceFit(profile, d.udid) : null }));
      const missing = rows.filter((row) => row.in_latest_build === 'out');
      res.setHeader('Cache-Control', 'no-store');
      res.json({
        latest_build: latest ? { id: latest.id, release_version: latest.releaseVersion, build_version: latest.buildVersion, profile_lists_devices: profile !== null } : null,
        devices: rows,
        missing: missing.length,
        apple_device_list: appleDeviceList(missing),
      });
    },
  }),
];
