import type { apps } from '@hangar/proto';
import { formatTimestamp } from '../../http/timestamps';

/** A registered device, as its tester sees it (and, with the address, an app's admins). */
export function presentDevice(device: apps.TesterDevice, withEmail = false) {
  return {
    id: device.id,
    name: device.name,
    udid: device.udid,
    product: device.product,
    os_version: device.osVersion,
    registered_at: formatTimestamp(device.createdAtMs),
    ...(withEmail ? { tester_email: device.email } : {}),
  };
}
