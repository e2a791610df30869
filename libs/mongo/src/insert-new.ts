import { isDuplicateKeyError } from './mongo-errors';

/** A mongoose model, or anything whose driver collection takes an unordered insertMany. */
interface InsertTarget {
  collection: { insertMany(docs: any[], options: { ordered: boolean }): Promise<unknown> };
}

/**
 * Inserts each document in one unordered insertMany; answers the ids inserted. A document whose
 * `_id` exists already is refused and left out of the answer (a claim taken before, a record
 * written before); any other failure fails the whole call, to be retried.
 */
export async function insertNew<I extends string | number>(model: InsertTarget, docs: { _id: I }[]): Promise<Set<I>> {
  if (docs.length === 0) return new Set();
  const inserted = new Set(docs.map((d) => d._id));
  try {
    await model.collection.insertMany(docs, { ordered: false });
  } catch (err) {
    const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
    const errors = (Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : []) as { index: number; code?: number }[];
    if (errors.length === 0 || !errors.every((e) => isDuplicateKeyError(e))) throw err;
    for (const e of errors) inserted.delete(docs[e.index]!._id);
  }
  return inserted;
}
