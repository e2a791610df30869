import { AlreadyExists, InvalidArgument, NotFound } from '@hangar/errors';
import { DEBUG_ID_TYPES, createEnvelope } from '@hangar/events';
import type { apps, debugFiles } from '@hangar/proto';
import type { DebugFileDocument } from '../data/debug-file.model';
import { type WriteResult, objectKeysOf } from '../data/debug-files.repository';
import { removeMembers } from '@hangar/parse-jobs';
import type { ReadArchive } from '../parsing/debug-archive.reader';
import { archiveFields } from './archive-fields';
import { channelWithAccess, fileOfChannel } from './channel-access';
import type { DebugFilesDeps } from './deps';

export interface DebugFileInChannel {
  file: DebugFileDocument;
  context: apps.ChannelContext;
}

/** Every entry of a file is of one kind, so its ids are all of one type. */
const DEBUG_ID_TYPE_OF_KIND = {
  dsym: 'macho_uuid',
  proguard: 'proguard_uuid',
  elf: 'gnu_build_id',
  breakpad: 'breakpad_module_id',
  pdb: 'pdb_guid_age',
  pe: 'pe_code_id',
} as const satisfies Record<DebugFileDocument['kind'], (typeof DEBUG_ID_TYPES)[number]>;

function duplicate(result: Extract<WriteResult, { reason: 'duplicate' }>): AlreadyExists {
  const which = result.duplicateOf ? `debug file ${result.duplicateOf}` : 'another debug file';
  return new AlreadyExists(`This archive was already uploaded to this app as ${which}`, { file: [`is the same content as ${which}`] });
}

/**
 * The upload story: the channel and the right to upload to it, the archive
 * read (hashed and parsed from storage), checked against the channel, then
 * the record and its `debug_file.created` event in one write. The archive was
 * stored by the gateway; if this is refused, the gateway removes it (when the
 * outcome is unknown, the orphan janitor does, unless a record refers to it).
 * The same content twice for one app: 409 naming the existing file — found
 * from the gateway's SHA-256 before anything is read when it sends one.
 */
export async function uploadDebugFile(deps: DebugFilesDeps, req: debugFiles.CreateDebugFileRequest): Promise<DebugFileInChannel> {
  const context = await channelWithAccess(deps, req.actor, req.channelKey, 'debug_files.manage');
  if (req.size === 0) throw InvalidArgument.field('file', 'is empty');
  // The gateway hashed the bytes as they streamed in: content this app already holds is refused
  // before the archive is fetched or inflated (a second upload of a large mapping cost a full parse).
  const sha256 = (req.sha256 ?? '').trim().toLowerCase();
  if (/^[0-9a-f]{64}$/.test(sha256)) {
    const existing = await deps.files.idOfContent(context.app!.id, sha256);
    if (existing !== undefined) throw duplicate({ ok: false, reason: 'duplicate', duplicateOf: existing });
  }
  const read = await deps.readArchive(req.objectKey);
  // The gateway removes the archive of a refused upload; the members stored beside it are ours.
  const result = await withMembersRemovedOnRefusal(deps, read, `Channel ${context.channel!.id} not found`, () => {
    const fields = archiveFields(context, read, req);
    return deps.files.create(
      { ...fields, appId: context.app!.id, schemeId: context.scheme!.id, channelId: context.channel!.id, appName: context.app!.name },
      (id, uuids) =>
        createEnvelope(
          'debug_file.created',
          {
            debug_file_id: id,
            app_id: context.app!.id,
            channel_id: context.channel!.id,
            release_version: fields.releaseVersion,
            build_version: fields.buildVersion,
            uuids,
            kind: fields.kind,
            debug_ids: uuids.map((uuid) => ({ type: DEBUG_ID_TYPE_OF_KIND[fields.kind], id: uuid })),
          },
          'debug-files',
        ),
    );
  });
  deps.onEventsRecorded();
  return { file: result.file, context };
}

/** Runs the write; when it is refused (or fails), the members this read stored are removed. */
async function withMembersRemovedOnRefusal(
  deps: DebugFilesDeps,
  read: ReadArchive,
  missing: string,
  write: () => Promise<WriteResult>,
): Promise<Extract<WriteResult, { ok: true }>> {
  try {
    const result = await write();
    if (!result.ok) throw result.reason === 'duplicate' ? duplicate(result) : new NotFound(missing);
    return result;
  } catch (err) {
    await removeMembers(deps.storage, read.memberKeys);
    throw err;
  }
}

/**
 * Replaces a debug file's archive and parses it again. The old archive is
 * removed once the record points at the new one; a failure there only leaves
 * an unreferenced object behind (logged), never a record without its file.
 */
export async function replaceDebugFile(deps: DebugFilesDeps, req: debugFiles.UpdateDebugFileRequest): Promise<DebugFileInChannel> {
  const context = await channelWithAccess(deps, req.actor, req.channelKey, 'debug_files.manage');
  await fileOfChannel(deps, context, req.id);
  if (req.size === 0) throw InvalidArgument.field('file', 'is empty');
  const read = await deps.readArchive(req.objectKey);
  const result = await withMembersRemovedOnRefusal(deps, read, `Debug file ${req.id} not found`, () => deps.files.replaceArchive(req.id, archiveFields(context, read, req)));
  const current = new Set(objectKeysOf(result.file));
  for (const oldKey of result.previous ? objectKeysOf(result.previous) : []) {
    if (current.has(oldKey)) continue;
    await deps.storage.delete(oldKey).catch((err: unknown) => deps.logger.warn({ err, objectKey: oldKey }, 'could not remove a replaced debug archive'));
  }
  return { file: result.file, context };
}
