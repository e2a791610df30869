import { FailedPrecondition, InvalidArgument, NotFound, Unauthenticated } from '@hangar/errors';
import type { TesterDeviceDocument } from '../data/tester-device.model';
import { channelFor } from './access';
import type { AppsDeps } from './deps';
import type { Actor } from './permissions';
import { authenticateTester } from './tester-access';

/**
 * A tester's iOS devices, registered through the `/udid` profile (the gateway checks the device's
 * signed answer and the session its challenge names); an app's admins see which of their
 * channel's testers' devices a build's provisioning profile leaves out.
 */

/** A person's phones, tablets and a spare: more is a lab, not a tester. */
export const DEVICES_PER_TESTER_MAX = 20;
export const DEVICE_NAME_MAX = 60;
// Old devices: 40 hex digits; since the iPhone XS: 8 hex, a dash, 16 hex; Macs: a UUID.
const UDID_PATTERN = /^(?:[0-9a-f]{40}|[0-9a-f]{8}-[0-9a-f]{16}|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12})$/i;
const PRODUCT_PATTERN = /^[A-Za-z][A-Za-z0-9,]{0,39}$/;
const OS_VERSION_PATTERN = /^[A-Za-z0-9.]{0,20}$/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

export interface DeviceReport {
  udid: string;
  product: string;
  osVersion: string;
}

export function validateDeviceReport(report: DeviceReport): DeviceReport {
  if (!UDID_PATTERN.test(report.udid)) throw InvalidArgument.field('udid', 'is not a device identifier');
  if (report.product && !PRODUCT_PATTERN.test(report.product)) throw InvalidArgument.field('product', 'is not a model identifier');
  if (!OS_VERSION_PATTERN.test(report.osVersion)) throw InvalidArgument.field('version', 'is not an OS build');
  return report;
}

export function validateDeviceName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw InvalidArgument.field('name', "can't be blank");
  if (CONTROL_CHARACTER.test(trimmed)) throw InvalidArgument.field('name', 'has a control character');
  if (trimmed.length > DEVICE_NAME_MAX) throw InvalidArgument.field('name', `is too long (at most ${DEVICE_NAME_MAX} characters)`);
  return trimmed;
}

/** `iPhone` of `iPhone15,2`. */
const familyOf = (product: string): string | undefined => /^[A-Za-z]+/.exec(product)?.[0];

/** Until the tester names it: the model's family and identifier (`iPhone (iPhone15,2)`). */
function defaultName(product: string): string {
  const family = familyOf(product);
  return family && family !== product ? `${family} (${product})` : product || 'iOS device';
}

/**
 * The device a profile answered for, under the tester whose live session the challenge named: a
 * session that ended (removed, signed out) registers nothing. Registering again updates its model
 * and OS and keeps its name.
 */
export async function registerTesterDevice(deps: AppsDeps, sessionId: number, report: DeviceReport, reportedName = ''): Promise<TesterDeviceDocument> {
  if (sessionId <= 0) throw new Unauthenticated('The tester session is invalid or has ended');
  const { email } = await authenticateTester(deps, '', sessionId);
  const device = validateDeviceReport(report);
  const known = await deps.testerDevices.findByUdid(email, device.udid);
  if (!known && (await deps.testerDevices.countByEmail(email)) >= DEVICES_PER_TESTER_MAX) {
    throw new FailedPrecondition(`You have ${DEVICES_PER_TESTER_MAX} devices already: remove one first`);
  }
  // The device's own name when it is one (iOS 16 and later send only the model's family), else the model.
  const own = reportedName.trim();
  const name = own && own !== familyOf(device.product) && !CONTROL_CHARACTER.test(own) ? own.slice(0, DEVICE_NAME_MAX) : defaultName(device.product);
  return deps.testerDevices.register(email, device, name);
}

/** The signed-in tester's devices (by the session's secret, or the id signed into a link). */
export async function listTesterDevices(deps: AppsDeps, secret: string, sessionId = 0): Promise<TesterDeviceDocument[]> {
  const { email } = await authenticateTester(deps, secret, sessionId);
  return deps.testerDevices.listByEmail(email);
}

export async function renameTesterDevice(deps: AppsDeps, secret: string, deviceId: number, name: string): Promise<TesterDeviceDocument> {
  const { email } = await authenticateTester(deps, secret);
  const renamed = await deps.testerDevices.rename(email, deviceId, validateDeviceName(name));
  if (!renamed) throw new NotFound('You have no such device');
  return renamed;
}

export async function removeTesterDevice(deps: AppsDeps, secret: string, deviceId: number): Promise<void> {
  const { email } = await authenticateTester(deps, secret);
  if (!(await deps.testerDevices.remove(email, deviceId))) throw new NotFound('You have no such device');
}

/**
 * For an app's admins: the devices of everyone in a group that opens the channel (whether or not
 * they get its e-mail), with the channel's key so the gateway can read its newest build.
 */
export async function listChannelTesterDevices(deps: AppsDeps, actor: Actor, channelId: number): Promise<{ slug: string; devices: TesterDeviceDocument[] }> {
  const { channel } = await channelFor(deps, actor, channelId, 'testers.manage');
  const groups = (await deps.testerGroups.listByApp(channel.appId)).filter((g) => g.channelIds.includes(channelId));
  const emails = [...new Set((await deps.testers.listByGroups(groups.map((g) => g._id))).map((t) => t.email))];
  return { slug: channel.slug, devices: await deps.testerDevices.listByEmails(emails) };
}
