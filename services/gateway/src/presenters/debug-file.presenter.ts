import type { debugFiles } from '@hangar/proto';
import { formatTimestamp } from '../http/timestamps';

/**
 * Where this exact file downloads from: a 302 to a short-lived storage URL,
 * made when it is followed. The channel key is the credential, as for the
 * download by version; the caller already holds it.
 */
export function debugFileUrl(baseUrl: string, id: number, channelKey: string): string {
  return `${baseUrl}/api/debug_files/${id}/download?channel_key=${encodeURIComponent(channelKey)}`;
}

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

/** The seed's Debug file shape, plus created_at / updated_at. */
export function presentDebugFile(file: debugFiles.DebugFile, baseUrl: string, channelKey: string, timeZone?: string) {
  return {
    id: file.id,
    app_name: file.appName,
    device_type: file.deviceType,
    release_version: file.releaseVersion,
    build_version: file.buildVersion,
    file_url: debugFileUrl(baseUrl, file.id, channelKey),
    metadata: file.metadata.map((row) => presentDebugFileMetadata(row, timeZone)),
    created_at: formatTimestamp(file.createdAtMs, timeZone),
    updated_at: formatTimestamp(file.updatedAtMs, timeZone),
  };
}
