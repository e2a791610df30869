import type { ParsedPackage } from '@hangar/parsers';

/**
 * Request/reply between the releases service and the parsing workers, over
 * core NATS with a queue group: any number of workers share the load, and an
 * upload waits for its answer. Internal: not part of the public event contract.
 */
// Deliberately outside `<prefix>.>`: the events stream captures that whole
// namespace, and the server would answer a request there with a stream ack.
export const parseSubject = (prefix: string) => `${prefix}-internal.parse.package.v1`;
export const PARSE_QUEUE_GROUP = 'package-parsers';

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
