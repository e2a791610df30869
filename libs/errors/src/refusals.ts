import { DomainError, ErrorCode } from './domain-errors';

/** Answers that turn a request down: the service wrote nothing for it. */
const REFUSALS = new Set<ErrorCode>([
  'malformed_request',
  'invalid_argument',
  'unauthenticated',
  'permission_denied',
  'not_found',
  'already_exists',
  'failed_precondition',
  'payload_too_large',
  'resource_exhausted',
]);

/**
 * Whether a failed call was refused, as opposed to ending without a known outcome: a service
 * that went away mid-call (UNAVAILABLE), a deadline that passed while the service kept
 * working, a database write whose acknowledgement was lost, a bug. After a refusal the caller
 * may remove what it stored for the call; after anything else the service may still have
 * recorded it, so what was stored is left for the owner's orphan janitor, which removes it
 * only if no record ever refers to it.
 */
export function isRefusal(err: unknown): boolean {
  return err instanceof DomainError && REFUSALS.has(err.code);
}
