import { headers } from '@nats-io/transport-node';
import type { JetStreamClient } from '@nats-io/jetstream';
import { REQUEST_ID_HEADER } from '@hangar/logger';
import { DEFAULT_SUBJECT_PREFIX, subjectOf } from './event-registry';
import type { Envelope } from './envelope';

/** Publishes one envelope and waits for the stream's acknowledgement. */
export async function publishEnvelope(
  js: JetStreamClient,
  envelope: Envelope,
  { prefix = DEFAULT_SUBJECT_PREFIX, requestId }: { prefix?: string; requestId?: string } = {},
): Promise<void> {
  const h = headers();
  if (requestId) h.set(REQUEST_ID_HEADER, requestId);
  await js.publish(subjectOf(envelope.type, prefix), JSON.stringify(envelope), { msgID: envelope.id, headers: h });
}
