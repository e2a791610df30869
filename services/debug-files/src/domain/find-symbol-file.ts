import { InvalidArgument, NotFound, PermissionDenied } from '@hangar/errors';
import type { debugFiles } from '@hangar/proto';
import type { DebugFileDocument, DebugFileEntry } from '../data/debug-file.model';
import { requireActor, resolveChannel } from './channel-access';
import type { DebugFilesDeps } from './deps';
import { contentTypeOf, downloadFileName } from './manage-debug-files';
import { normalizeUuid } from './uuid';

/** What a client may ask for: debuginfod's two kinds (and the entry flag that says a file can answer), a Breakpad `.sym`. */
const WANTS = { debuginfo: 'has_debug_info', executable: 'has_code', breakpad: 'module_name', dsym: 'uuid', macho: 'uuid', pdb: 'symbol_server_id' } as const;
type Want = keyof typeof WANTS;

/**
 * A GNU build-id as clients send it: hex, 8 to 64 bytes (ld's default sha1 is 20). Anything else
 * is refused before the database is asked, so a wrong id costs nothing.
 */
export function normalizeBuildId(value: string): string {
  const hex = value.trim().toLowerCase();
  if (!/^[0-9a-f]+$/.test(hex) || hex.length % 2 !== 0 || hex.length < 16 || hex.length > 128) {
    throw InvalidArgument.field('build_id', 'must be a GNU build-id: 16 to 128 hexadecimal digits, an even number');
  }
  return hex;
}

/** A Breakpad module id or a PDB's symbol-server id: the 32 hex digits of a GUID and the age in hex. */
export function normalizeModuleId(value: string): string {
  const hex = value.trim().toLowerCase();
  if (!/^[0-9a-f]{33,40}$/.test(hex)) throw InvalidArgument.field('module_id', 'must be a Breakpad module id: 33 to 40 hexadecimal digits');
  return hex;
}

/** A Microsoft symbol-server id: a PDB's GUID and age (33–40 hex digits) or a PE's stamp and size (9–16). */
export function normalizeSymStoreId(value: string): string {
  const hex = value.trim().toLowerCase();
  if (!/^[0-9a-f]{9,40}$/.test(hex)) throw InvalidArgument.field('id', 'must be <GUID><age> of a PDB or <TimeDateStamp><SizeOfImage> of a PE, in hex');
  return hex;
}

/** The entry of `file` that answers the request, if one does. */
function answeringEntry(file: DebugFileDocument, debugId: string, want: Want, fileName: string): DebugFileEntry | undefined {
  if ((want === 'breakpad') !== (file.kind === 'breakpad')) return undefined;
  // A PDB: its GUID and age, and the name it was uploaded with (symbol servers ask by both; any case).
  if (want === 'pdb') return file.kind === 'pdb' || file.kind === 'pe' ? file.entries.find((entry) => entry.uuid === debugId && entry.object.toLowerCase() === fileName.toLowerCase()) : undefined;
  // A dSYM zip answers for every Mach-O UUID it holds.
  if (want === 'dsym') return file.kind === 'dsym' ? file.entries.find((entry) => entry.uuid === debugId) : undefined;
  // One slice of a dSYM, stored on its own when it was uploaded (Sentry's unified layout, lldb).
  if (want === 'macho') return file.kind === 'dsym' ? file.entries.find((entry) => entry.uuid === debugId && entry.objectKey) : undefined;
  if (file.kind === 'dsym') return undefined;
  return file.entries.find((entry) => {
    if (entry.uuid !== debugId) return false;
    try {
      const data = JSON.parse(entry.dataJson) as Record<string, unknown>;
      return want === 'breakpad' ? data.module_name === fileName : data[WANTS[want]] === true;
    } catch {
      return false;
    }
  });
}

/**
 * Where the answering bytes are: the member stored on its own (an ELF file of a zip, a dSYM's
 * slice when a slice is asked for), or else the file's whole object (a dSYM zip by UUID).
 */
function bytesOf(file: DebugFileDocument, entry: DebugFileEntry, want: Want): { objectKey: string; size: number; fileName: string; contentType: string } {
  if (entry.objectKey && want !== 'dsym') return { objectKey: entry.objectKey, size: entry.size, fileName: entry.object || 'debuginfo', contentType: 'application/octet-stream' };
  return { objectKey: file.objectKey, size: file.size, fileName: downloadFileName(file), contentType: contentTypeOf(file) };
}

/**
 * The file a symbol-server route redirects to. With a channel key: that channel's files only;
 * with a caller: files of any app they may read. Files that exist only in apps the caller may
 * not read: 403, as everywhere else (PRODUCT §2 does not hide existence); none at all: 404.
 */
export async function findSymbolFile(deps: DebugFilesDeps, req: debugFiles.FindSymbolFileRequest): Promise<debugFiles.SymbolFileLocation> {
  const want = req.want as Want;
  if (!(want in WANTS)) throw InvalidArgument.field('want', 'must be debuginfo, executable, breakpad, dsym, macho or pdb');
  const debugId =
    want === 'breakpad' ? normalizeModuleId(req.debugId) : want === 'pdb' ? normalizeSymStoreId(req.debugId) : want === 'dsym' || want === 'macho' ? normalizeUuid(req.debugId) : normalizeBuildId(req.debugId);
  const notFound = () =>
    new NotFound(want === 'breakpad' || want === 'pdb' ? `No ${want === 'pdb' ? 'PDB' : 'Breakpad symbols'} for ${req.fileName} ${debugId}` : want === 'dsym' ? `No dSYM with UUID ${debugId}` : want === 'macho' ? `No Mach-O slice with UUID ${debugId}` : `No ${want} for build-id ${debugId}`);

  const channelKey = req.channelKey.trim();
  const actor = channelKey ? undefined : requireActor(req.actor);
  const channelId = channelKey ? (await resolveChannel(deps, channelKey)).channel!.id : undefined;

  // Every file carrying the id is a candidate, walked from the index a batch at a time (an earlier
  // cut at the 50 newest missed a caller's file behind 50 others' copies of the same build).
  let found: { file: DebugFileDocument; entry: DebugFileEntry } | undefined;
  let refusedAny = false;
  if (channelId !== undefined) {
    for await (const candidate of pages((skip, limit) => deps.files.liveByDebugIdInChannel(channelId, debugId, skip, limit))) {
      const entry = answeringEntry(candidate, debugId, want, req.fileName);
      if (entry) {
        found = { file: candidate, entry };
        break;
      }
    }
  } else {
    const decided = new Map<number, boolean>();
    for await (const candidate of pages((skip, limit) => deps.files.liveByDebugId(debugId, skip, limit))) {
      const entry = answeringEntry(candidate, debugId, want, req.fileName);
      if (!entry) continue;
      if (!decided.has(candidate.appId)) decided.set(candidate.appId, await mayRead(deps, actor!, candidate.appId));
      if (decided.get(candidate.appId)) {
        found = { file: candidate, entry };
        break;
      }
      refusedAny = true;
    }
  }
  if (!found && refusedAny) throw new PermissionDenied(`You may not read the apps that hold debug id ${debugId}`);
  if (!found) throw notFound();

  const expires = Math.min(Math.max(req.expiresInSeconds || 300, 10), 7 * 24 * 3600);
  const bytes = bytesOf(found.file, found.entry, want);
  const url = await deps.storage.presignedGetUrl(bytes.objectKey, expires, { fileName: bytes.fileName, contentType: bytes.contentType });
  return { url, fileName: bytes.fileName, objectKey: bytes.objectKey, size: bytes.size, debugFileId: found.file._id };
}

/** Whether the caller may read the app's files; other failures (an outage) propagate. */
async function mayRead(deps: DebugFilesDeps, actor: NonNullable<debugFiles.FindSymbolFileRequest['actor']>, appId: number): Promise<boolean> {
  try {
    await deps.apps.checkPermission({ actor, appId, action: 'debug_files.read' });
    return true;
  } catch (err) {
    if (err instanceof PermissionDenied || err instanceof NotFound) return false;
    throw err;
  }
}

/** Candidates a page at a time, until a short page says there are no more. */
async function* pages(read: (skip: number, limit: number) => Promise<DebugFileDocument[]>, size = 100): AsyncGenerator<DebugFileDocument> {
  for (let skip = 0; ; skip += size) {
    const page = await read(skip, size);
    yield* page;
    if (page.length < size) return;
  }
}
