import { NotFound } from '@hangar/errors';
import { createEnvelope } from '@hangar/events';
import type { apps, debugFiles } from '@hangar/proto';
import type { DebugFileDocument } from '../data/debug-file.model';
import type { Actor, DebugFilesDeps } from './deps';
import { channelWithAccess, fileOfChannel, resolveChannel } from './channel-access';
import { downloadSelection } from './download-rule';
import type { DebugFileInChannel } from './upload-debug-file';
import { normalizeUuid } from './uuid';

export interface Page {
  page: number;
  perPage: number;
}

export async function getDebugFile(deps: DebugFilesDeps, req: debugFiles.GetDebugFileRequest): Promise<DebugFileInChannel> {
  const context = await channelWithAccess(deps, req.actor, req.channelKey, 'debug_files.read');
  return { file: await fileOfChannel(deps, context, req.id), context };
}

/** A channel's debug files, newest first; `uuid` narrows to those carrying that UUID. */
export async function listDebugFiles(
  deps: DebugFilesDeps,
  req: debugFiles.ListDebugFilesRequest,
  page: Page,
): Promise<{ files: DebugFileDocument[]; total: number; context: apps.ChannelContext }> {
  const uuid = req.uuid.trim() ? normalizeUuid(req.uuid) : undefined;
  const context = await channelWithAccess(deps, req.actor, req.channelKey, 'debug_files.read');
  const { files, total } = await deps.files.pageOfChannel(context.channel!.id, uuid, (page.page - 1) * page.perPage, page.perPage);
  return { files, total, context };
}

/**
 * Tombstones the file with its `debug_file.deleted` event in one write; the
 * files consumer then removes the archive (retrying until storage answers)
 * and finally the tombstone.
 */
export async function deleteDebugFile(deps: DebugFilesDeps, actor: Actor | undefined, channelKey: string, id: number): Promise<void> {
  const context = await channelWithAccess(deps, actor, channelKey, 'debug_files.manage');
  const file = await fileOfChannel(deps, context, id);
  const event = createEnvelope('debug_file.deleted', { debug_file_id: id, app_id: file.appId, channel_id: file.channelId }, 'debug-files');
  if (!(await deps.files.markDeleted(id, event))) throw new NotFound(`Debug file ${id} not found`);
  deps.onEventsRecorded();
}

/**
 * The file a download redirects to, as a short-lived URL: by id, or by the
 * rule of download-rule.ts. No token: the channel key is the credential, as
 * for the other channel_key routes.
 */
export async function findDownload(deps: DebugFilesDeps, req: debugFiles.FindDownloadRequest): Promise<debugFiles.DebugFileDownload> {
  const context = await resolveChannel(deps, req.channelKey);
  const channel = context.channel!;
  let file: DebugFileDocument | null;
  if (req.id) {
    file = await fileOfChannel(deps, context, req.id);
  } else {
    const { match, order } = downloadSelection(channel.deviceType, req);
    file = await deps.files.findForDownload(channel.id, match, order);
    if (!file) throw new NotFound(`No debug file in channel ${channel.name} matches ${describe(match)}`);
  }
  const expires = Math.min(Math.max(req.expiresInSeconds || 300, 10), 7 * 24 * 3600);
  const fileName = downloadFileName(file);
  const url = await deps.storage.presignedGetUrl(file.objectKey, expires, { fileName, contentType: contentTypeOf(file) });
  return { url, fileName, objectKey: file.objectKey, size: file.size, id: file._id };
}

function describe(match: { releaseVersion?: string; buildVersion?: string }): string {
  const parts = [match.releaseVersion && `release_version ${match.releaseVersion}`, match.buildVersion && `build_version ${match.buildVersion}`].filter(Boolean);
  return parts.length ? parts.join(' and ') : 'the request';
}

/** An ELF file is stored as it was sent; the others are zips. */
/** ELF files uploaded together in a zip: the archive is a zip, each member is stored beside it. */
const isPackedElf = (file: Pick<DebugFileDocument, 'kind'> & Partial<Pick<DebugFileDocument, 'entries'>>) =>
  file.kind === 'elf' && (file.entries ?? []).some((e) => e.objectKey);

export function contentTypeOf(file: Pick<DebugFileDocument, 'kind'> & Partial<Pick<DebugFileDocument, 'entries'>>): string {
  if (isPackedElf(file)) return 'application/zip';
  return file.kind === 'elf' || file.kind === 'pdb' || file.kind === 'pe' ? 'application/octet-stream' : file.kind === 'breakpad' ? 'text/plain' : 'application/zip';
}

/** `<app>-<version>-<build>-<dSYM|mapping>.zip` (`…-<build>.debug` for ELF), with characters browsers and shells dislike replaced. */
export function downloadFileName(file: Pick<DebugFileDocument, 'appName' | 'releaseVersion' | 'buildVersion' | 'kind'> & Partial<Pick<DebugFileDocument, 'entries'>>): string {
  const safe = (s: string) => s.replace(/[^\p{L}\p{N}._-]+/gu, '_').replace(/^_+|_+$/g, '');
  const label = { dsym: 'dSYM', proguard: 'mapping', elf: '', breakpad: '', pdb: '', pe: '' }[file.kind];
  const parts = [safe(file.appName) || 'app', safe(file.releaseVersion), safe(file.buildVersion), label].filter(Boolean);
  return `${parts.join('-')}${isPackedElf(file) ? '.zip' : { dsym: '.zip', proguard: '.zip', elf: '.debug', breakpad: '.sym', pdb: '.pdb', pe: '.exe' }[file.kind]}`;
}
