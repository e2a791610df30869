import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { EVENT_REGISTRY, EventData, EventType, isEventType } from './event-registry';

/**
 * What goes on the wire. `id` doubles as the JetStream message id, so a
 * publish that is retried (outbox relay after a crash) is dropped as a
 * duplicate by the server.
 */
export interface Envelope<T extends EventType = EventType> {
  id: string;
  type: T;
  version: number;
  occurredAt: string;
  source: string;
  data: EventData<T>;
}

export function createEnvelope<T extends EventType>(type: T, data: EventData<T>, source: string): Envelope<T> {
  // Validate at the source: publishing a wrong shape fails where it is made.
  const parsed = EVENT_REGISTRY[type].schema.parse(data) as EventData<T>;
  return { id: randomUUID(), type, version: EVENT_REGISTRY[type].version, occurredAt: new Date().toISOString(), source, data: parsed };
}

const envelopeShape = z.object({
  id: z.string().min(1),
  type: z.string(),
  version: z.number().int(),
  occurredAt: z.string(),
  source: z.string(),
  data: z.unknown(),
});

export class MalformedEventError extends Error {}

/** Parses and validates a received message; MalformedEventError when it is not ours. */
export function parseEnvelope(raw: string): Envelope {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new MalformedEventError('event is not JSON');
  }
  const envelope = envelopeShape.safeParse(json);
  if (!envelope.success) throw new MalformedEventError(`event envelope is invalid: ${envelope.error.message}`);
  const { type } = envelope.data;
  if (!isEventType(type)) throw new MalformedEventError(`unknown event type ${type}`);
  const data = EVENT_REGISTRY[type].schema.safeParse(envelope.data.data);
  if (!data.success) throw new MalformedEventError(`payload of ${type} is invalid: ${data.error.message}`);
  return { ...envelope.data, type, data: data.data } as Envelope;
}
