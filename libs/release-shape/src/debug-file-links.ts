import type { debugFiles, releases } from '@hangar/proto';
import { releaseUrls } from './release-fields';

/**
 * Where one debug file downloads from: a 302 to a short-lived storage URL, made when it is
 * followed. The channel key is the credential, as for the download by version.
 */
export function debugFileUrl(baseUrl: string, id: number, channelKey: string): string {
  return `${baseUrl}/api/debug_files/${id}/download?channel_key=${encodeURIComponent(channelKey)}`;
}

/**
 * A release's `debug_files`: the debug files of its version and build in its channel
 * (builds and their symbols, linked). `debug_ids` are the ids debuggers ask with (Mach-O UUIDs,
 * GNU build-ids, PDB GUID+age, Breakpad module ids), lowercased, without repeats.
 */
export function debugFileLinks(files: debugFiles.DebugFile[], baseUrl: string, channelKey?: string) {
  return files.map((file) => ({
    id: file.id,
    kind: file.kind,
    file_name: file.fileName,
    size: file.size,
    debug_ids: [...new Set(file.metadata.map((row) => row.uuid.toLowerCase()).filter(Boolean))],
    ...(channelKey ? { file_url: debugFileUrl(baseUrl, file.id, channelKey) } : {}),
  }));
}

/** A debug file's `releases`: the live releases of its version and build, newest upload first. */
export function releaseLinks(list: releases.Release[], baseUrl: string) {
  return list.map((release) => ({
    id: release.id,
    version: release.version,
    release_version: release.releaseVersion,
    build_version: release.buildVersion,
    release_url: releaseUrls(baseUrl, release).release_url,
  }));
}
