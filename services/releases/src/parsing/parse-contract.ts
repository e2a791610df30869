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

/**
 * A request header asking the worker to confirm receipt at once, before it waits for a slot and
 * parses. Core NATS drops a request routed toward a node that froze (until the cluster's route
 * pings find it dead) or to a worker that died, and nothing tells the requester: one that hears
 * no confirmation within PARSE_ACCEPT_TIMEOUT_MS asks again. Requesters from before it send no
 * header and get only the answer.
 */
export const PARSE_ACCEPT_HEADER = 'Hangar-Parse-Accept';
export const PARSE_ACCEPT_TIMEOUT_MS = 5_000;

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
