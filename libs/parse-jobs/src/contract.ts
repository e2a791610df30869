import type { DebugFileLimits, ParsedDebugFile, ParsedPackage } from '@hangar/parsers';

/**
 * Request/reply between the services that store uploads and the parsing workers, over core NATS
 * with a queue group: any number of workers share the load, and an upload waits for its answer.
 * One pool reads both kinds of upload — packages (for the releases service) and debug files (for
 * the debug-files service) — each by range from storage. Internal: not part of the public event
 * contract.
 */
// Deliberately outside `<prefix>.>`: the events stream captures that whole
// namespace, and the server would answer a request there with a stream ack.
export const parseSubject = (prefix: string) => `${prefix}-internal.parse.package.v1`;
export const debugFileParseSubject = (prefix: string) => `${prefix}-internal.parse.debug-file.v1`;
export const PARSE_QUEUE_GROUP = 'package-parsers';

/**
 * A request header asking the worker to confirm receipt at once, before it waits for a slot and
 * parses. Core NATS drops a request routed toward a node that froze (until the cluster's route
 * pings find it dead) or to a worker that died, and nothing tells the requester: one that hears
 * no confirmation within PARSE_ACCEPT_TIMEOUT_MS asks again. Requesters from before it send no
 * header and get only the answer.
 */
export const PARSE_ACCEPT_HEADER = 'Hangar-Parse-Accept';
export const PARSE_ACCEPT_TIMEOUT_MS = 5_000;

/**
 * A request header asking the worker, once it has confirmed, to say it is still at work every
 * PARSE_HEARTBEAT_MS until it answers. A requester that then hears nothing for PARSE_SILENCE_MS
 * asks again: the worker died or froze mid-parse (a killed parse-workers pod), and without the
 * beats the upload waited out the whole timeout. Workers from before it send none, and
 * requesters from before it do not ask.
 */
export const PARSE_HEARTBEAT_HEADER = 'Hangar-Parse-Heartbeat';
export const PARSE_HEARTBEAT_MS = 2_000;
/** Ten beats: a worker's event loop busy for a moment is not taken for a dead worker. */
export const PARSE_SILENCE_MS = 20_000;

/** The worker's beat while it waits for a slot or parses. */
export interface ParseWorking {
  working: true;
}

export function isParseWorking(value: unknown): value is ParseWorking {
  return typeof value === 'object' && value !== null && (value as Record<string, unknown>).working === true;
}

/** The worker's confirmation that it has the request. */
export interface ParseAccepted {
  accepted: true;
}

export function isParseAccepted(value: unknown): value is ParseAccepted {
  return typeof value === 'object' && value !== null && (value as Record<string, unknown>).accepted === true;
}

export interface ParseRequest {
  objectKey: string;
}

export type ParsedPackageFields = Omit<ParsedPackage, 'icon'>;

export type ParseReply =
  | { ok: true; parsed: ParsedPackageFields; iconKey?: string }
  /** corrupt: a known format that is broken (422); unknown: not a format we read; unavailable: storage trouble. */
  | { ok: false; kind: 'corrupt' | 'unknown' | 'unavailable'; message: string };

/** A reply from a parsing worker, as opposed to anything else that answered. */
export function isParseReply(value: unknown): value is ParseReply {
  if (typeof value !== 'object' || value === null) return false;
  const reply = value as Record<string, unknown>;
  if (reply.ok === true) return typeof reply.parsed === 'object' && reply.parsed !== null;
  return reply.ok === false && ['corrupt', 'unknown', 'unavailable'].includes(String(reply.kind)) && typeof reply.message === 'string';
}

/**
 * Where the worker stores the members of a debug archive that clients fetch on their own (an ELF
 * file of a zip, a dSYM's slice): beside the archive, by the entry's index. The debug-files
 * service finds, serves and removes them by the same name.
 */
export const memberKeyOf = (archiveKey: string, index: number) => `${archiveKey}.member-${index}`;

export interface DebugFileParseRequest {
  objectKey: string;
  /** The debug-files service's bounds on what one upload may inflate to. */
  limits: Partial<Pick<DebugFileLimits, 'maxTotalBytes' | 'maxCompressionRatio'>>;
}

/** What the debug-files service records of an archive. */
export interface ReadDebugArchive {
  parsed: ParsedDebugFile;
  /** Per entry of `parsed`: the key of its stored member (memberKeyOf), if it has one. */
  memberKeys: (string | null)[];
  /** SHA-256 of the stored bytes, hex. */
  checksum: string;
  size: number;
}

export type DebugFileParseReply =
  | ({ ok: true } & ReadDebugArchive)
  /** corrupt: not a debug file, or a damaged one (422); too_large: inflates past the limits (413); unavailable: storage trouble. */
  | { ok: false; kind: 'corrupt' | 'too_large' | 'unavailable'; message: string };

export function isDebugFileParseReply(value: unknown): value is DebugFileParseReply {
  if (typeof value !== 'object' || value === null) return false;
  const reply = value as Record<string, unknown>;
  if (reply.ok === true) return typeof reply.parsed === 'object' && reply.parsed !== null && Array.isArray(reply.memberKeys) && typeof reply.checksum === 'string';
  return reply.ok === false && ['corrupt', 'too_large', 'unavailable'].includes(String(reply.kind)) && typeof reply.message === 'string';
}
