import { InvalidArgument } from '@hangar/errors';
import type { DownloadMatch, DownloadOrder } from '../data/debug-files.repository';

export interface DownloadQuery {
  releaseVersion: string;
  buildVersion: string;
  order: string;
}

export interface DownloadSelection {
  match: DownloadMatch;
  order: DownloadOrder;
}

const ORDERS: readonly DownloadOrder[] = ['version', 'upload_date'];

/**
 * PRODUCT §5 and the seed's download rule, for a channel of `deviceType`:
 * - `release_version` narrows Android files and is required there; iOS
 *   ignores it (a dSYM's own Info.plist versions are what was stored);
 * - `build_version` given: that build;
 * - then `order` picks the first: `version` (default) the highest build
 *   version — of the release version on Android, of the channel on iOS —,
 *   `upload_date` the newest upload. With a build given, order still breaks
 *   ties between several uploads of it.
 */
export function downloadSelection(deviceType: string, query: DownloadQuery): DownloadSelection {
  const order = (query.order.trim() || 'version') as DownloadOrder;
  if (!ORDERS.includes(order)) throw InvalidArgument.field('order', 'must be version or upload_date');
  const match: DownloadMatch = {};
  if (deviceType === 'android') {
    const releaseVersion = query.releaseVersion.trim();
    if (!releaseVersion) throw InvalidArgument.field('release_version', "can't be blank");
    match.releaseVersion = releaseVersion;
  }
  const buildVersion = query.buildVersion.trim();
  if (buildVersion) match.buildVersion = buildVersion;
  return { match, order };
}
