import type { releases } from '@hangar/proto';
import { androidFields, parseMetadata, signingFields } from '@hangar/release-shape';
import { formatTimestamp } from '../http/timestamps';

/** A teardown: what the release of the package would show (the Release's parsed fields, signing, android), and when it goes. */
export function presentTeardown(teardown: releases.Teardown, baseUrl: string, timeZone?: string, now = new Date()) {
  const metadata = parseMetadata(teardown.metadataJson);
  return {
    id: teardown.id,
    url: `${baseUrl}/api/teardown/${teardown.id}`,
    file_name: teardown.fileName,
    size: teardown.size,
    format: teardown.format,
    name: teardown.name,
    bundle_id: teardown.bundleId,
    release_version: teardown.releaseVersion,
    build_version: teardown.buildVersion,
    platform: teardown.platform,
    device_type: teardown.deviceType,
    min_os_version: teardown.minOsVersion,
    release_type: teardown.releaseType,
    signing: signingFields(metadata, now),
    android: androidFields(metadata, teardown.platform),
    created_at: formatTimestamp(teardown.createdAtMs, timeZone),
    expires_at: formatTimestamp(teardown.expiresAtMs, timeZone),
  };
}
