import { randomUUID } from 'node:crypto';
import plist from 'plist';

/** What the profile asks the device for: no serial number, IMEI or ICCID, which Hangar has no use for. */
const DEVICE_ATTRIBUTES = ['UDID', 'PRODUCT', 'VERSION', 'DEVICE_NAME'];

/**
 * The `/udid` profile: a Profile Service payload (Apple's Over-the-Air Profile Delivery) that makes
 * the device post its signed attributes to `registerUrl`, then open the page that answer redirects to.
 * Installing it installs nothing: iOS removes it once the answer is sent.
 */
export function udidProfile(registerUrl: string, challenge: string, organisation: string): Buffer {
  return Buffer.from(
    plist.build({
      PayloadContent: { URL: registerUrl, DeviceAttributes: DEVICE_ATTRIBUTES, Challenge: challenge },
      PayloadOrganization: organisation,
      PayloadDisplayName: `Register this device with ${organisation}`,
      PayloadDescription: 'Sends this device\'s identifier (UDID), model and iOS version to your testers\' page, so the builds made for it can be told apart. It installs nothing and is removed once sent.',
      PayloadIdentifier: 'dev.hangar.udid',
      PayloadUUID: randomUUID().toUpperCase(),
      PayloadType: 'Profile Service',
      PayloadVersion: 1,
    }),
    'utf8',
  );
}
