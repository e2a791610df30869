import type { Span } from '@opentelemetry/api';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { redactPath } from '@hangar/logger';
import { UNMATCHED_PATH, routeTemplateOf, withoutQuery } from './safe-url';

// Both the old and the stable HTTP semantic conventions, whichever the
// instrumentation writes (OTEL_SEMCONV_STABILITY_OPT_IN chooses).
const SERVER_URL_KEYS = ['http.target', 'url.path'];
const CLIENT_URL_KEYS = ['http.url', 'url.full'];
const CLIENT_PATH_KEYS = ['http.target', 'url.path'];
const DROPPED_KEYS = ['url.query'];

function overwrite(span: Span, keys: string[], value: string): void {
  for (const key of keys) span.setAttribute(key, value);
}

/**
 * Incoming requests: the path becomes the route template when the response
 * ends (the raw path may hold a credential). Outgoing requests (S3 through
 * minio, anything else over node:http): the URL without its query.
 */
function hideSecretsInUrls(span: Span, request: ClientRequest | IncomingMessage, _response: IncomingMessage | ServerResponse): void {
  if (!(request instanceof ClientRequest)) {
    const template = routeTemplateOf(request) ?? UNMATCHED_PATH;
    overwrite(span, SERVER_URL_KEYS, template);
    span.setAttribute('http.url', template);
    // What the express instrumentation would add, without its wrapper around
    // every middleware and router layer (most of its cost on the reads bench).
    span.setAttribute('http.route', template);
    span.updateName(`${request.method ?? 'HTTP'} ${template}`);
  } else {
    const path = redactPath(withoutQuery(request.path ?? ''));
    const host = String(request.getHeader('host') ?? request.host ?? '');
    overwrite(span, CLIENT_URL_KEYS, `${request.protocol ?? 'http:'}//${host}${path}`);
    overwrite(span, CLIENT_PATH_KEYS, path);
  }
  for (const key of DROPPED_KEYS) span.setAttribute(key, '');
}

/**
 * What is patched, before the modules load: node:http (incoming requests,
 * named by their express route; S3 and other outgoing calls; trace context in
 * and out through headers), grpc-js (client and server; trace context through
 * metadata) and the MongoDB driver under mongoose (statements left out:
 * documents carry secrets' hashes and sealed webhook secrets).
 */
export function hangarInstrumentations(): Instrumentation[] {
  return [
    new HttpInstrumentation({
      applyCustomAttributesOnSpan: hideSecretsInUrls,
      // Prometheus scrapes and probes would be half of all traces.
      ignoreIncomingRequestHook: (req) => /^\/(metrics|healthz)(\?|$)/.test(req.url ?? ''),
    }),
    new GrpcInstrumentation({ ignoreGrpcMethods: ['Check', 'Watch'] }),
    new MongoDBInstrumentation({ enhancedDatabaseReporting: false }),
  ];
}
