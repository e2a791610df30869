import type { Document, MongoClient } from 'mongodb';

export interface PlanVerdict {
  indexed: boolean;
  detail: string;
}

interface PgPlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Schema?: string;
  Filter?: string;
  'Recheck Cond'?: string;
  'Index Name'?: string;
  Plans?: PgPlanNode[];
}

/**
 * Explains one recorded query on the engine it ran on and says whether an
 * index serves it.
 *
 * MongoDB: any COLLSCAN stage is a scan.
 *
 * FerretDB on PostgreSQL: a plan with no Seq Scan uses an index. A Seq Scan
 * without a filter means FerretDB pushed nothing down (it pushes equality on
 * top-level fields only: not `$in`, ranges, `$exists`): a scan whatever the
 * indexes. On a table of a few rows PostgreSQL rightly prefers a Seq Scan even
 * where an index serves the filter, so a Seq Scan with a filter is planned
 * again with sequential scans off: if PostgreSQL still scans, no index serves it.
 */
export async function explainRecordedQuery(
  mongo: MongoClient,
  postgresUrl: string | undefined,
  query: { database: string; collection: string; operation: string; filter: string; sort?: string },
): Promise<PlanVerdict> {
  // The drivers are loaded here, not with @hangar/testing, which every test file imports: only the plan check explains.
  const { BSON } = require('mongodb') as typeof import('mongodb');
  const filter = BSON.EJSON.parse(query.filter, { relaxed: false }) as Document;
  const sort = query.sort ? (JSON.parse(query.sort) as Document) : undefined;
  const collection = mongo.db(query.database).collection(query.collection);
  // Updates and deletes reach the database through the same filter pushdown as a find.
  const explained = (await collection.find(filter, sort ? { sort } : {}).explain()) as Document;

  if (explained.queryPlanner?.winningPlan) {
    const scans = JSON.stringify(explained.queryPlanner.winningPlan).includes('COLLSCAN');
    return { indexed: !scans, detail: scans ? 'COLLSCAN' : 'index scan' };
  }
  const plan = explained.queryPlanner?.Plan as PgPlanNode | undefined;
  if (!plan) return { indexed: false, detail: `no plan in the explain output: ${JSON.stringify(explained).slice(0, 300)}` };
  const scans: PgPlanNode[] = [];
  const indexes: string[] = [];
  const walk = (node: PgPlanNode) => {
    if (node['Node Type'] === 'Seq Scan') scans.push(node);
    if (node['Index Name']) indexes.push(node['Index Name']);
    node.Plans?.forEach(walk);
  };
  walk(plan);
  if (scans.length === 0) return { indexed: true, detail: `index ${indexes.join(', ') || plan['Node Type']}` };
  if (!postgresUrl) return { indexed: false, detail: 'Seq Scan (no PostgreSQL URL to check whether an index could serve it)' };
  for (const scan of scans) {
    if (!scan.Filter) return { indexed: false, detail: 'Seq Scan: FerretDB pushed nothing of this filter down' };
    const replanned = await planWithoutSeqScan(postgresUrl, scan);
    if (/Seq Scan/.test(replanned)) return { indexed: false, detail: `Seq Scan: no index serves ${scan.Filter}` };
  }
  return { indexed: true, detail: 'a small table PostgreSQL scans, though an index serves the filter' };
}

async function planWithoutSeqScan(postgresUrl: string, scan: PgPlanNode): Promise<string> {
  const { Client } = require('pg') as typeof import('pg');
  const client = new Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query('SET enable_seqscan = off');
    const table = `"${scan.Schema}"."${scan['Relation Name']}"`;
    const result = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT _jsonb FROM ${table} WHERE ${scan.Filter}`);
    return result.rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await client.end();
  }
}
