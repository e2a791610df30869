import {
  CallOptions,
  Channel,
  Client,
  ClientError,
  ClientMiddlewareCall,
  CompatServiceDefinition,
  Metadata,
  Status,
  createClientFactory,
} from 'nice-grpc';
import { DeadlineOptions, deadlineMiddleware } from 'nice-grpc-client-middleware-deadline';
import { HealthDefinition, HealthCheckResponse_ServingStatus } from 'nice-grpc-server-health/lib/proto/grpc/health/v1/health';
import { FieldErrors, domainErrorFrom, isDomainError, withCause } from '@hangar/errors';
import { REQUEST_ID_HEADER, currentRequestId } from '@hangar/logger';
import { Metrics, grpcClientMetrics } from '@hangar/metrics';
import { carryTrace } from '@hangar/telemetry';
import { createProbeChannel, createServiceChannel } from './channel';
import { ERROR_CODE_TRAILER, ERROR_ENTRY_TRAILER, rpcLabels, statusName } from './server-middleware';
import { DEPENDENCIES, Dependency, dependencyHealthName } from './dependency-checks';

export type ServiceClient<S extends CompatServiceDefinition> = Client<S, DeadlineOptions>;

export interface ClientOptions {
  /** Deadline of every call unless the caller sets one: no call waits forever. */
  defaultDeadlineMs?: number;
  /** Counts and times the calls (hangar_grpc_client_*). */
  metrics?: Metrics;
}

/** Counts every call by service, method and the status it ended with (the deadline's included). */
function clientMetricsMiddleware(metrics: Metrics) {
  const { handled, duration } = grpcClientMetrics(metrics);
  return async function* <Request, Response>(
    call: ClientMiddlewareCall<Request, Response>,
    options: CallOptions,
  ): AsyncGenerator<Response, Response | void, undefined> {
    const stop = duration.startTimer();
    let code = Status.OK;
    try {
      return yield* call.next(call.request as never, options);
    } catch (err) {
      code = err instanceof ClientError ? err.code : err instanceof Error && err.name === 'AbortError' ? Status.CANCELLED : Status.UNKNOWN;
      throw err;
    } finally {
      const labels = { ...rpcLabels(call.method.path), code: statusName(code) };
      handled.inc(labels);
      stop(labels);
    }
  };
}

/**
 * Carries the request id (and, without auto-instrumentation, the traceparent) into metadata and turns gRPC failures back into the
 * domain errors the service raised (exact code and field problems from the
 * trailers), so the gateway maps them to HTTP with the same table.
 */
async function* contextAndErrors<Request, Response>(
  call: ClientMiddlewareCall<Request, Response>,
  options: CallOptions,
): AsyncGenerator<Response, Response | void, undefined> {
  const metadata = Metadata(options.metadata);
  const requestId = currentRequestId();
  if (requestId && !metadata.has(REQUEST_ID_HEADER)) metadata.set(REQUEST_ID_HEADER, requestId);
  carryTrace((key, value) => metadata.set(key, value));
  let trailer: Metadata | undefined;
  try {
    return yield* call.next(call.request as never, {
      ...options,
      metadata,
      onTrailer(received) {
        trailer = received;
        options.onTrailer?.(received);
      },
    });
  } catch (err) {
    if (!(err instanceof ClientError)) throw err;
    const code = trailer?.get(ERROR_CODE_TRAILER);
    const entryJson = trailer?.get(ERROR_ENTRY_TRAILER);
    let entry: FieldErrors | undefined;
    if (entryJson) {
      try {
        entry = JSON.parse(entryJson) as FieldErrors;
      } catch {
        entry = undefined;
      }
    }
    // A service that is down answers UNAVAILABLE with a transport message; keep
    // the client-facing message about the dependency, not the socket.
    const message = err.code === Status.UNAVAILABLE && !code ? 'A service is unavailable, try again shortly' : err.details;
    // The gRPC error (method, status, transport detail) stays as the cause, for the log of
    // whoever answers: the client-facing message names no method and no socket.
    throw withCause(domainErrorFrom(err.code, message, code, entry), err);
  }
}

export function createServiceClient<S extends CompatServiceDefinition>(
  definition: S,
  target: string | Channel,
  { defaultDeadlineMs = 10_000, metrics }: ClientOptions = {},
): ServiceClient<S> {
  const channel = typeof target === 'string' ? createServiceChannel(target) : target;
  // The middleware added last runs outermost: the deadline's own
  // DEADLINE_EXCEEDED must pass through the error translation too.
  const factory = createClientFactory().use(deadlineMiddleware);
  // Between the two: sees the deadline's status, before it becomes a domain error.
  return (metrics ? factory.use(clientMetricsMiddleware(metrics)) : factory)
    .use(contextAndErrors)
    .create(definition, channel, { '*': { deadline: defaultDeadlineMs } }) as ServiceClient<S>;
}

/**
 * Asks a service's standard health endpoint about each dependency it reports (server.ts,
 * watchDependencies): true / false for those it has, absent for those it has none of (NOT_FOUND)
 * — and every one false when the service itself does not answer.
 */
export async function checkDependencies(channel: Channel, deadlineMs = 1_000): Promise<Partial<Record<Dependency, boolean>>> {
  const client = createServiceClient(HealthDefinition, channel, { defaultDeadlineMs: deadlineMs });
  const answers = await Promise.all(
    DEPENDENCIES.map(async (dependency) => {
      try {
        const response = await client.check({ service: dependencyHealthName(dependency) });
        return [dependency, response.status === HealthCheckResponse_ServingStatus.SERVING] as const;
      } catch (err) {
        return isDomainError(err) && err.code === 'not_found' ? undefined : ([dependency, false] as const);
      }
    }),
  );
  return Object.fromEntries(answers.filter((answer) => answer !== undefined));
}

/**
 * Asks a service's standard health endpoint whether it is SERVING. Given an address, the probe
 * connects afresh and closes its connection; given a channel, it uses that one.
 */
export async function checkHealth(target: string | Channel, deadlineMs = 1_000): Promise<boolean> {
  const channel = typeof target === 'string' ? createProbeChannel(target) : target;
  const client = createServiceClient(HealthDefinition, channel, { defaultDeadlineMs: deadlineMs });
  try {
    const response = await client.check({ service: '' });
    return response.status === HealthCheckResponse_ServingStatus.SERVING;
  } catch {
    return false;
  } finally {
    if (channel !== target) channel.close();
  }
}
