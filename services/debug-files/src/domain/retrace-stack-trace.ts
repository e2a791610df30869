import { InvalidArgument, NotFound } from '@hangar/errors';
import { LineTooLongError, PackageParseError, javaLines, retrace, withZip } from '@hangar/parsers';
import type { debugFiles } from '@hangar/proto';
import type { DebugFileDocument } from '../data/debug-file.model';
import { resolveChannel } from './channel-access';
import type { DebugFilesDeps } from './deps';

/** A stack trace is a few hundred lines; a megabyte is already far more than any crash sends. */
export const MAX_TRACE_CHARS = 1024 * 1024;
/** A mapping line names one member; a longer one is not a mapping this reader should hold. */
const MAX_MAPPING_LINE_CHARS = 64 * 1024;
/** Ambiguous frames multiply lines; the answer must fit a gRPC message (4 MiB) with room to spare. */
const MAX_ANSWER_CHARS = 3 * 1024 * 1024;
/** Bounds the inflate of the stored archive's mapping member. */
const MAX_MAPPING_BYTES = 4 * 1024 * 1024 * 1024;

/**
 * An Android stack trace deobfuscated with the mapping of one build of the channel (its newest
 * upload, as the download by upload date picks), as ProGuard's ReTrace prints it. The mapping is
 * streamed twice from storage through the zip (libs/parsers retrace.ts says why twice).
 */
export async function retraceStackTrace(deps: DebugFilesDeps, req: debugFiles.RetraceRequest): Promise<debugFiles.RetraceResult> {
  const releaseVersion = req.releaseVersion.trim();
  const buildVersion = req.buildVersion.trim();
  const problems: Record<string, string[]> = {};
  if (!releaseVersion) problems.release_version = ["can't be blank"];
  if (!buildVersion) problems.build_version = ["can't be blank"];
  if (!req.stackTrace.trim()) problems.stack_trace = ["can't be blank"];
  else if (req.stackTrace.length > MAX_TRACE_CHARS) problems.stack_trace = [`is longer than ${MAX_TRACE_CHARS} characters`];
  if (Object.keys(problems).length) throw new InvalidArgument('Cannot retrace', problems);

  const channel = (await resolveChannel(deps, req.channelKey)).channel!;
  const files = await deps.files.liveOfBuild(channel.id, releaseVersion, buildVersion);
  const file = files.find((f) => f.kind === 'proguard');
  const member = file && mappingMember(file);
  if (!file || !member) throw new NotFound(`No ProGuard mapping for ${releaseVersion} (${buildVersion}) in this channel`);

  const source = await deps.storage.openRangeSource(file.objectKey);
  try {
    const result = await withZip(source, MAX_MAPPING_BYTES, (zip) => retrace(req.stackTrace, () => javaLines(zip.stream(member), MAX_MAPPING_LINE_CHARS)));
    if (result.text.length > MAX_ANSWER_CHARS) throw InvalidArgument.field('stack_trace', `retraced, it is longer than ${MAX_ANSWER_CHARS} characters: send fewer lines`);
    return { stackTrace: result.text, debugFileId: file._id };
  } catch (err) {
    // The stored archive was accepted at upload; these mean its mapping cannot be read as ReTrace reads one.
    if (err instanceof LineTooLongError || err instanceof RangeError || err instanceof PackageParseError) {
      throw InvalidArgument.field('release_version', `the mapping of this build cannot be read: ${err.message}`);
    }
    throw err;
  } finally {
    await source.close();
  }
}

/** The archive path of the file's mapping.txt, as the parser recorded it. */
function mappingMember(file: DebugFileDocument): string | undefined {
  for (const entry of file.entries) {
    if (entry.type !== 'mapping') continue;
    try {
      const data = JSON.parse(entry.dataJson) as { path?: unknown };
      if (typeof data.path === 'string') return data.path;
    } catch {
      // A row without its path cannot be opened; try the next.
    }
  }
  return undefined;
}
