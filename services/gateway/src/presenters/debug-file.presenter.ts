import type { debugFiles, releases } from '@hangar/proto';
import { debugFileUrl, releaseLinks } from '@hangar/release-shape';
import { formatTimestamp } from '../http/timestamps';

export { debugFileUrl };

/** The parser's extras; a row whose JSON cannot be read shows an empty object rather than failing the response. */
function dataOf(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The seed's DebugFileMetadata "Shape B" (docs/decisions.md): one row per
 * Mach-O slice (iOS) or per file of a mapping archive (Android).
 */
export function presentDebugFileMetadata(row: debugFiles.DebugFileMetadata, timeZone?: string) {
  return {
    id: row.id,
    debug_file_id: row.debugFileId,
    uuid: row.uuid,
    type: row.type,
    object: row.object,
    data: dataOf(row.dataJson),
    size: row.size,
    created_at: formatTimestamp(row.createdAtMs, timeZone),
    updated_at: formatTimestamp(row.updatedAtMs, timeZone),
  };
}

/**
 * The seed's Debug file shape, plus its kind, created_at / updated_at and the releases of its
 * version and build (clients/build-links.ts fetches them for a whole answer at once; left out
 * when the releases service did not answer).
 */
export function presentDebugFile(file: debugFiles.DebugFile, linked: releases.Release[] | undefined, baseUrl: string, channelKey: string, timeZone?: string) {
  return {
    id: file.id,
    kind: file.kind,
    app_name: file.appName,
    device_type: file.deviceType,
    release_version: file.releaseVersion,
    build_version: file.buildVersion,
    file_url: debugFileUrl(baseUrl, file.id, channelKey),
    metadata: file.metadata.map((row) => presentDebugFileMetadata(row, timeZone)),
    ...(linked ? { releases: releaseLinks(linked, baseUrl) } : {}),
    created_at: formatTimestamp(file.createdAtMs, timeZone),
    updated_at: formatTimestamp(file.updatedAtMs, timeZone),
  };
}
