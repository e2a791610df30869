import type { Connection } from 'mongoose';
import { isDuplicateKeyError } from './mongo-errors';

interface TurnDocument {
  _id: string;
  job: string;
  turn: number;
  claimedAt: Date;
}

const indexed = new WeakSet<Connection>();

/**
 * One replica per turn of a periodic job (e.g. the orphan janitor's interval): the replica
 * whose insert of `<job>:<turn>` lands has the turn, the others skip it. An insert with an
 * existing `_id` is refused atomically on FerretDB as on MongoDB (the pattern of
 * counters.ts), where a read-then-write lease would not be. A replica that dies during its
 * turn loses only that turn; the next is claimed afresh. Claims of past turns are removed.
 */
export async function claimTurn(connection: Connection, job: string, turn: number): Promise<boolean> {
  const turns = connection.collection<TurnDocument>('job_turns');
  if (!indexed.has(connection)) {
    // The sweep of past claims below filters on `job`: an index serves it (the plan check, tests/plans).
    await turns.createIndex({ job: 1, turn: 1 });
    indexed.add(connection);
  }
  try {
    await turns.insertOne({ _id: `${job}:${turn}`, job, turn, claimedAt: new Date() });
  } catch (err) {
    if (isDuplicateKeyError(err)) return false;
    throw err;
  }
  await turns.deleteMany({ job, turn: { $lt: turn - 1 } });
  return true;
}
