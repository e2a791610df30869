import type { Metrics } from './metrics';

/**
 * Every Hangar series, named once here so dashboards and alerts can rely on
 * them (docs/operations.md lists them). Labels never carry ids, tokens,
 * channel keys or raw URLs: only bounded sets (route patterns, RPC names,
 * status codes, event types, consumer names).
 */

/** Gateway: every HTTP request, by express route pattern (`/api/apps/:id`), never the raw path. */
export function httpServerMetrics(metrics: Metrics) {
  return {
    requests: metrics.counter('hangar_http_requests_total', 'HTTP requests answered by the gateway', ['method', 'route', 'status']),
    duration: metrics.histogram('hangar_http_request_duration_seconds', 'Time from request to the end of the response', ['method', 'route', 'status']),
  };
}

/** Every RPC a gRPC server handled, with its final status code name (OK, NOT_FOUND, …). */
export function grpcServerMetrics(metrics: Metrics) {
  return {
    handled: metrics.counter('hangar_grpc_server_handled_total', 'RPCs completed by this server', ['service', 'method', 'code']),
    duration: metrics.histogram('hangar_grpc_server_handling_seconds', 'Time this server spent on an RPC', ['service', 'method', 'code']),
  };
}

/** Every RPC a gRPC client made, with the status code it got back. */
export function grpcClientMetrics(metrics: Metrics) {
  return {
    handled: metrics.counter('hangar_grpc_client_handled_total', 'RPCs completed by this process as a client', ['service', 'method', 'code']),
    duration: metrics.histogram('hangar_grpc_client_handling_seconds', 'Time an RPC took as seen by the client', ['service', 'method', 'code']),
  };
}

export type UploadKind = 'package' | 'debug_file';

/** Bytes of upload bodies (the file plus the multipart framing and fields), counted as they arrive. */
export function uploadBytesCounter(metrics: Metrics) {
  return metrics.counter('hangar_upload_bytes_total', 'Bytes of upload request bodies received by the gateway', ['kind']);
}

/** How the parts of a parallel (tus) upload became one file: see ResumableUploads.concatenate. */
export type UploadJoin = 'in_place' | 'copy_in_s3' | 'through_gateway';

/** Parallel uploads joined, by how: in place costs nothing, a copy in S3 writes the file again, through the gateway reads and writes it. */
export function uploadJoinsCounter(metrics: Metrics) {
  return metrics.counter('hangar_upload_joins_total', 'Parallel (tus) uploads joined into one file, by how', ['how']);
}

export type ParseOutcome = 'ok' | 'corrupt' | 'unknown' | 'unavailable';

/** Package parsing in the releases workers; `format` is the detected one (ipa, apk, …) or `unknown`. */
export function packageParseHistogram(metrics: Metrics) {
  return metrics.histogram(
    'hangar_package_parse_seconds',
    'Time a parsing worker took to read a package',
    ['format', 'outcome'],
    [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  );
}

/**
 * Parse requests a worker has taken from NATS and not yet answered: waiting for
 * one of its PARSE_WORKER_CONCURRENCY slots or being parsed. Summed over the
 * workers it is the parsing backlog the parse-workers autoscaler follows
 * (deploy/k8s/base/parse-workers.yaml).
 */
export function packageParseQueueGauge(metrics: Metrics) {
  return metrics.gauge('hangar_package_parse_queue_depth', 'Parse requests received by this worker and not yet answered (waiting or being parsed)', []);
}

export type ConsumerResult = 'done' | 'skipped' | 'failed' | 'malformed';

/** The JetStream consumer runner (libs/events): outcomes, redeliveries and lag. */
export function eventConsumerMetrics(metrics: Metrics) {
  return {
    processed: metrics.counter('hangar_event_consumer_processed_total', 'Event deliveries handled, by result', ['consumer', 'event', 'result']),
    redeliveries: metrics.counter('hangar_event_consumer_redeliveries_total', 'Deliveries that were not the first of their message', ['consumer', 'event']),
    pending: metrics.gauge('hangar_event_consumer_pending', 'Messages not yet delivered to the consumer (JetStream num_pending), sampled', ['consumer']),
  };
}

/**
 * The outbox relay (libs/events): how long each event waited between the write
 * that recorded it and its publication to JetStream (the outbox lag), and relay
 * passes that failed (NATS or the database unreachable: events wait meanwhile).
 */
export function outboxRelayMetrics(metrics: Metrics) {
  return {
    lag: metrics.histogram('hangar_outbox_lag_seconds', 'Time from the write that recorded an event to its publication', [], [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900]),
    failedPasses: metrics.counter('hangar_outbox_relay_failures_total', 'Outbox relay passes that failed and will be retried', []),
  };
}

/**
 * Object-storage calls that failed for a reason other than what was asked for
 * (S3 unreachable, 5xx, refused credentials); a missing object or an
 * over-size upload is not counted. `operation`: the ObjectStorage method.
 */
export function storageErrorsCounter(metrics: Metrics) {
  return metrics.counter('hangar_storage_errors_total', 'Object-storage calls that failed (S3 unreachable or erroring)', ['operation']);
}

/** Database failures that ended an RPC (MongoDB unreachable: answered as UNAVAILABLE). */
export function databaseErrorsCounter(metrics: Metrics) {
  return metrics.counter('hangar_database_errors_total', 'Database failures that ended an RPC', []);
}

/**
 * Outgoing webhook deliveries (apps service). `outcome`: `success` (2xx),
 * `failure` (an answer other than 2xx, or no answer: will be retried),
 * `gave_up` (the last attempt failed). One increment per attempt.
 */
export type WebhookOutcome = 'success' | 'failure' | 'gave_up';

export function webhookDeliveriesCounter(metrics: Metrics) {
  return metrics.counter('hangar_webhook_deliveries_total', 'Webhook delivery attempts, by outcome', ['outcome']);
}

/**
 * The orphan-object janitor (releases, debug-files): objects no record refers to and unfinished
 * multipart uploads it removed, by key prefix (`packages`, `icons`, `debug-files`) and `kind`
 * (`object`, `incomplete_upload`); and how each of its turns ended (`done`, `skipped`: another
 * replica had the turn, `failed`: storage or the database did not answer).
 */
export function storageJanitorMetrics(metrics: Metrics) {
  return {
    removed: metrics.counter('hangar_storage_orphans_removed_total', 'Unreferenced objects and unfinished multipart uploads the janitor removed', ['prefix', 'kind']),
    runs: metrics.counter('hangar_storage_janitor_runs_total', 'Turns of the orphan-object janitor, by result', ['result']),
    refused: metrics.counter(
      'hangar_storage_janitor_refused_total',
      'Prefixes the orphan-object janitor left alone: installation ids not matching, no records beside many objects, or more orphans than its share bound',
      ['prefix', 'reason'],
    ),
  };
}
