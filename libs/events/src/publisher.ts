import { headers } from '@nats-io/transport-node';
import type { JetStreamClient } from '@nats-io/jetstream';
import type { Context } from '@opentelemetry/api';
import { REQUEST_ID_HEADER } from '@hangar/logger';
import { SpanKind, inSpan, injectTraceHeaders } from '@hangar/telemetry';
import { DEFAULT_SUBJECT_PREFIX, subjectOf } from './event-registry';
import type { Envelope } from './envelope';

export interface PublishOptions {
  prefix?: string;
  requestId?: string;
  /** The trace the publish belongs to; the active one when absent (the outbox passes the write's). */
  traceContext?: Context;
}

/**
 * Publishes one envelope and waits for the stream's acknowledgement, in a
 * producer span whose traceparent travels in the message headers.
 */
export async function publishEnvelope(js: JetStreamClient, envelope: Envelope, { prefix = DEFAULT_SUBJECT_PREFIX, requestId, traceContext }: PublishOptions = {}): Promise<void> {
  const subject = subjectOf(envelope.type, prefix);
  const attributes = { 'messaging.system': 'nats', 'messaging.destination.name': subject, 'messaging.message.id': envelope.id };
  await inSpan(`publish ${envelope.type}`, { kind: SpanKind.PRODUCER, parent: traceContext, attributes }, async () => {
    const h = headers();
    if (requestId) h.set(REQUEST_ID_HEADER, requestId);
    injectTraceHeaders(h);
    await js.publish(subject, JSON.stringify(envelope), { msgID: envelope.id, headers: h });
  });
}
