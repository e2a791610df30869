/**
 * The documents matching any of `values`, as one equality query per distinct
 * value, all sent at once. FerretDB 1.24 pushes only equality down to
 * PostgreSQL, never `$in` (nor `$or`): an `$in` reads and decodes the whole
 * collection, found by the plan check (tests/plans). Each equality query is
 * answered from an index on FerretDB and MongoDB alike; callers pass small
 * sets (a user's apps, a janitor's batch of keys).
 */
export async function findEach<V, D>(values: readonly V[], find: (value: V) => Promise<D[]>): Promise<D[]> {
  const distinct = [...new Set(values)];
  return (await Promise.all(distinct.map(find))).flat();
}
