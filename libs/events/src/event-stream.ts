import { JetStreamManager, RetentionPolicy, StorageType } from '@nats-io/jetstream';
import { DEFAULT_SUBJECT_PREFIX } from './event-registry';
import { ensureStream } from './jetstream-setup';

/** One stream holds every Hangar event; consumers filter by subject. */
export function streamNameFor(prefix = DEFAULT_SUBJECT_PREFIX): string {
  return `${prefix.replace(/[^A-Za-z0-9_-]/g, '_').toUpperCase()}_EVENTS`;
}

const SEVEN_DAYS_NS = 7 * 24 * 60 * 60 * 1e9;
const TWO_MINUTES_NS = 2 * 60 * 1e9;

/** Creates the events stream when missing; safe to call from every service at start. */
export async function ensureEventStream(jsm: JetStreamManager, prefix = DEFAULT_SUBJECT_PREFIX): Promise<string> {
  const name = streamNameFor(prefix);
  return ensureStream(jsm, {
    name,
    subjects: [`${prefix}.>`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: SEVEN_DAYS_NS,
    // Window in which a re-published event id is dropped as a duplicate.
    duplicate_window: TWO_MINUTES_NS,
  });
}
