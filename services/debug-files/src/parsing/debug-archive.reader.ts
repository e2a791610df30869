import { InvalidArgument, PayloadTooLarge, Unavailable } from '@hangar/errors';
import type { DebugFileParseReply, DebugFileParseRequest, ReadDebugArchive } from '@hangar/parse-jobs';

export type ReadArchive = ReadDebugArchive;

/**
 * Reads an uploaded archive through the parsing pool (the workers that read packages too): the
 * worker reads it by range from storage, hashes it, stores the members clients fetch on their
 * own beside it, and answers. Not a debug archive: InvalidArgument (422) with the parser's
 * message, which says what was expected; one that would inflate past the limits (decompression
 * bombs): PayloadTooLarge (413); storage trouble or no worker: Unavailable (503).
 */
export function debugArchiveReader(askPool: (request: DebugFileParseRequest) => Promise<DebugFileParseReply>, limits: DebugFileParseRequest['limits']): (objectKey: string) => Promise<ReadArchive> {
  return async (objectKey) => {
    const reply = await askPool({ objectKey, limits });
    if (reply.ok) return { parsed: reply.parsed, memberKeys: reply.memberKeys, checksum: reply.checksum, size: reply.size };
    if (reply.kind === 'too_large') throw new PayloadTooLarge(reply.message);
    if (reply.kind === 'corrupt') throw new InvalidArgument(reply.message, { file: [reply.message] });
    throw new Unavailable(reply.message);
  };
}
