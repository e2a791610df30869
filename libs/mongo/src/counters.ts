import type { Connection } from 'mongoose';
import { isDuplicateKeyError } from './mongo-errors';

interface CounterDocument {
  _id: string;
  seq: number;
}

interface ClaimDocument {
  _id: string;
}

/** Callers of one process take numbers one at a time, per connection and counter. */
const queues = new WeakMap<Connection, Map<string, Promise<unknown>>>();

const MAX_ATTEMPTS = 50;

/**
 * Integer ids from a counter, because the API's ids are integers. Never
 * handed out twice, across processes too; a gap only where a caller failed
 * between taking a number and claiming it.
 *
 * `findOneAndUpdate` with `$inc` is atomic on MongoDB but not on FerretDB 1.x:
 * it reads the document, applies the update in Go and writes the whole
 * document back, so concurrent callers read the same value and get the same
 * number (the 200-at-once test saw duplicates). Two guards make up for it:
 * - in one process, calls for the same counter run one after another, so the
 *   counter is never raced from here;
 * - across processes (replicas), the number is then claimed by inserting
 *   `<name>:<n>` into `counter_claims`; an insert with an existing `_id` is
 *   refused atomically everywhere, so exactly one caller keeps `n` and the
 *   loser takes the next one. Every value the counter hands out is claimed by
 *   someone, so concurrency alone skips no number.
 */
export function nextSequence(connection: Connection, name: string): Promise<number> {
  let perName = queues.get(connection);
  if (!perName) queues.set(connection, (perName = new Map()));
  const previous = perName.get(name) ?? Promise.resolve();
  const next = previous.then(
    () => takeNumber(connection, name),
    () => takeNumber(connection, name),
  );
  perName.set(name, next);
  const settled = (): void => {
    if (perName.get(name) === next) perName.delete(name);
  };
  next.then(settled, settled);
  return next;
}

async function takeNumber(connection: Connection, name: string): Promise<number> {
  const counters = connection.collection<CounterDocument>('counters');
  const claims = connection.collection<ClaimDocument>('counter_claims');
  for (let attempt = 1; ; attempt++) {
    try {
      const counter = await counters.findOneAndUpdate({ _id: name }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after' });
      if (!counter) throw new Error(`counter ${name} was not returned`);
      await claims.insertOne({ _id: `${name}:${counter.seq}` });
      return counter.seq;
    } catch (err) {
      // E11000 from the counter's upsert (two first uses at once; MongoDB
      // retries those itself, FerretDB does not) or from a claim another
      // process made first: both mean "take the next number".
      if (!isDuplicateKeyError(err) || attempt >= MAX_ATTEMPTS) throw err;
    }
  }
}
