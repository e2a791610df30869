/**
 * Domain errors know nothing of HTTP or gRPC. Each carries a stable snake_case
 * code; `error-mapping.ts` turns codes into transport statuses in one table.
 */

/** Validation problems per field, as the API's `entry` object shows them. */
export type FieldErrors = Record<string, string[]>;

export type ErrorCode =
  | 'malformed_request'
  | 'invalid_argument'
  | 'unauthenticated'
  | 'permission_denied'
  | 'not_found'
  | 'already_exists'
  | 'failed_precondition'
  | 'payload_too_large'
  | 'resource_exhausted'
  | 'storage_full'
  | 'unavailable'
  | 'deadline_exceeded'
  | 'unimplemented'
  | 'internal';

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly entry?: FieldErrors,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The request itself cannot be read (bad JSON, broken multipart). */
export class MalformedRequest extends DomainError {
  constructor(message: string) {
    super('malformed_request', message);
  }
}

/** Well-formed but invalid values; `entry` names the fields. */
export class InvalidArgument extends DomainError {
  constructor(message: string, entry?: FieldErrors) {
    super('invalid_argument', message, entry);
  }

  /** One field, one problem: the common case. */
  static field(field: string, problem: string): InvalidArgument {
    return new InvalidArgument(`${field} ${problem}`, { [field]: [problem] });
  }
}

export class Unauthenticated extends DomainError {
  constructor(message = 'A valid access token is required') {
    super('unauthenticated', message);
  }
}

export class PermissionDenied extends DomainError {
  constructor(message = 'You are not allowed to do this') {
    super('permission_denied', message);
  }
}

export class NotFound extends DomainError {
  constructor(message: string) {
    super('not_found', message);
  }
}

export class AlreadyExists extends DomainError {
  constructor(message: string, entry?: FieldErrors) {
    super('already_exists', message, entry);
  }
}

export class FailedPrecondition extends DomainError {
  constructor(message: string, entry?: FieldErrors) {
    super('failed_precondition', message, entry);
  }
}

export class PayloadTooLarge extends DomainError {
  constructor(message: string) {
    super('payload_too_large', message);
  }
}

export class ResourceExhausted extends DomainError {
  constructor(message: string) {
    super('resource_exhausted', message);
  }
}

/**
 * Object storage has no room left (S3 InsufficientStorage, ENOSPC under it): 507 with
 * Retry-After — the upload was fine and may be sent again once space is freed.
 */
export class StorageFull extends DomainError {
  readonly retryAfterSeconds = 60;
  constructor(message = 'Storage is full; try the upload again later') {
    super('storage_full', message);
  }
}

/** A dependency (database, broker, storage, another service) is down. */
export class Unavailable extends DomainError {
  constructor(message = 'A dependency is unavailable, try again shortly') {
    super('unavailable', message);
  }
}

export class DeadlineExceeded extends DomainError {
  constructor(message = 'The request took too long') {
    super('deadline_exceeded', message);
  }
}

export class Unimplemented extends DomainError {
  constructor(message = 'Not implemented') {
    super('unimplemented', message);
  }
}

/** A bug. Its message is never shown to clients. */
export class InternalError extends DomainError {
  constructor(message = 'Internal error') {
    super('internal', message);
  }
}

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}

/**
 * `error` with `cause` set as `new Error(message, { cause })` would, and not enumerable, so
 * nothing copies it into an answer: what failed underneath (a gRPC method and status, a
 * socket error) is for the log of whoever answers, not for the client.
 */
export function withCause<E extends Error>(error: E, cause: unknown): E {
  Object.defineProperty(error, 'cause', { value: cause, enumerable: false, writable: true, configurable: true });
  return error;
}
