import { Status } from 'nice-grpc-common';
import {
  AlreadyExists,
  DeadlineExceeded,
  DomainError,
  ErrorCode,
  FailedPrecondition,
  FieldErrors,
  InternalError,
  InvalidArgument,
  MalformedRequest,
  NotFound,
  PayloadTooLarge,
  PermissionDenied,
  ResourceExhausted,
  StorageFull,
  Unauthenticated,
  Unavailable,
  Unimplemented,
} from './domain-errors';

interface Mapping {
  grpc: Status;
  http: number;
  create: (message: string, entry?: FieldErrors) => DomainError;
}

/**
 * The one table from domain error codes to gRPC and HTTP. The gRPC pairs follow
 * google/rpc/code.proto; the HTTP statuses follow the product contract (422
 * for invalid values, 409 for conflicts, 503 for a dependency that is down).
 */
export const ERROR_MAPPINGS: Record<ErrorCode, Mapping> = {
  malformed_request: { grpc: Status.INVALID_ARGUMENT, http: 400, create: (m) => new MalformedRequest(m) },
  invalid_argument: { grpc: Status.INVALID_ARGUMENT, http: 422, create: (m, e) => new InvalidArgument(m, e) },
  unauthenticated: { grpc: Status.UNAUTHENTICATED, http: 401, create: (m) => new Unauthenticated(m) },
  permission_denied: { grpc: Status.PERMISSION_DENIED, http: 403, create: (m) => new PermissionDenied(m) },
  not_found: { grpc: Status.NOT_FOUND, http: 404, create: (m) => new NotFound(m) },
  already_exists: { grpc: Status.ALREADY_EXISTS, http: 409, create: (m, e) => new AlreadyExists(m, e) },
  failed_precondition: { grpc: Status.FAILED_PRECONDITION, http: 422, create: (m, e) => new FailedPrecondition(m, e) },
  payload_too_large: { grpc: Status.OUT_OF_RANGE, http: 413, create: (m) => new PayloadTooLarge(m) },
  resource_exhausted: { grpc: Status.RESOURCE_EXHAUSTED, http: 429, create: (m) => new ResourceExhausted(m) },
  storage_full: { grpc: Status.RESOURCE_EXHAUSTED, http: 507, create: (m) => new StorageFull(m) },
  unavailable: { grpc: Status.UNAVAILABLE, http: 503, create: (m) => new Unavailable(m) },
  deadline_exceeded: { grpc: Status.DEADLINE_EXCEEDED, http: 503, create: (m) => new DeadlineExceeded(m) },
  unimplemented: { grpc: Status.UNIMPLEMENTED, http: 501, create: (m) => new Unimplemented(m) },
  internal: { grpc: Status.INTERNAL, http: 500, create: (m) => new InternalError(m) },
};

const CODE_BY_GRPC_STATUS = new Map<Status, ErrorCode>([
  [Status.INVALID_ARGUMENT, 'invalid_argument'],
  [Status.UNAUTHENTICATED, 'unauthenticated'],
  [Status.PERMISSION_DENIED, 'permission_denied'],
  [Status.NOT_FOUND, 'not_found'],
  [Status.ALREADY_EXISTS, 'already_exists'],
  [Status.FAILED_PRECONDITION, 'failed_precondition'],
  [Status.OUT_OF_RANGE, 'payload_too_large'],
  [Status.RESOURCE_EXHAUSTED, 'resource_exhausted'],
  [Status.UNAVAILABLE, 'unavailable'],
  [Status.DEADLINE_EXCEEDED, 'deadline_exceeded'],
  [Status.UNIMPLEMENTED, 'unimplemented'],
  [Status.CANCELLED, 'unavailable'],
]);

export function httpStatusOf(err: DomainError): number {
  return ERROR_MAPPINGS[err.code].http;
}

export function grpcStatusOf(err: DomainError): Status {
  return ERROR_MAPPINGS[err.code].grpc;
}

export function isErrorCode(value: string): value is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_MAPPINGS, value);
}

/**
 * Rebuilds a domain error from what crossed the wire: the exact code when the
 * sender was a Hangar service (it sends it in metadata), otherwise the closest
 * code for the gRPC status.
 */
export function domainErrorFrom(status: Status, message: string, code?: string, entry?: FieldErrors): DomainError {
  // A Hangar service sends its code with every refusal, so RESOURCE_EXHAUSTED without one is
  // gRPC's own: a message past the size limit ("Received message larger than max (… vs 4194304)").
  // That is our bug, not the caller's limit: never a 429 quoting the transport.
  if (status === Status.RESOURCE_EXHAUSTED && !(code && isErrorCode(code))) return new InternalError('Internal error');
  const resolved: ErrorCode = code && isErrorCode(code) ? code : (CODE_BY_GRPC_STATUS.get(status) ?? 'internal');
  return ERROR_MAPPINGS[resolved].create(message, entry);
}
