import { DeadlineExceeded, InvalidArgument, NotFound, PayloadTooLarge } from '@hangar/errors';
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
/** The default bound of the mapping one call reads (DEBUG_FILE_RETRACE_MAX_MAPPING_BYTES). */
export const DEFAULT_RETRACE_MAX_MAPPING_BYTES = 512 * 1024 * 1024;
/** Mapping lines read between two looks at the call's signal. */
const LINES_PER_SIGNAL_CHECK = 1024;

/**
 * An Android stack trace deobfuscated with the mapping of one build of the channel (its newest
 * upload, as the download by upload date picks), as ProGuard's ReTrace prints it. The mapping is
 * streamed twice from storage through the zip (libs/parsers retrace.ts says why twice).
 */
export async function retraceStackTrace(deps: DebugFilesDeps, req: debugFiles.RetraceRequest, signal?: AbortSignal): Promise<debugFiles.RetraceResult> {
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

  const maxMappingBytes = deps.retraceMaxMappingBytes ?? DEFAULT_RETRACE_MAX_MAPPING_BYTES;
  const mappingSize = file.entries.find((e) => e.type === 'mapping')?.size ?? 0;
  if (mappingSize > maxMappingBytes) {
    throw new PayloadTooLarge(`The mapping of ${releaseVersion} (${buildVersion}) is ${mappingSize} bytes, more than the ${maxMappingBytes} a retrace reads`);
  }
  const source = await deps.storage.openRangeSource(file.objectKey);
  const started = Date.now();
  try {
    const result = await withZip(source, maxMappingBytes, (zip) =>
      retrace(req.stackTrace, () => untilAborted(javaLines(zip.stream(member), MAX_MAPPING_LINE_CHARS), signal)),
    );
    if (result.text.length > MAX_ANSWER_CHARS) throw InvalidArgument.field('stack_trace', `retraced, it is longer than ${MAX_ANSWER_CHARS} characters: send fewer lines`);
    return { stackTrace: result.text, debugFileId: file._id };
  } catch (err) {
    if (err instanceof RetraceCancelled) {
      deps.logger.warn({ debugFileId: file._id, ms: Date.now() - started }, 'retrace cancelled: the caller went away or its deadline passed');
      throw new DeadlineExceeded('The retrace was cancelled: its deadline passed');
    }
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

class RetraceCancelled extends Error {}

/** The mapping's lines until the call's signal aborts (looked at every LINES_PER_SIGNAL_CHECK lines). */
async function* untilAborted(lines: AsyncIterable<string>, signal: AbortSignal | undefined): AsyncGenerator<string> {
  let n = 0;
  for await (const line of lines) {
    if (++n % LINES_PER_SIGNAL_CHECK === 0 && signal?.aborted) throw new RetraceCancelled();
    yield line;
  }
  if (signal?.aborted) throw new RetraceCancelled();
}
