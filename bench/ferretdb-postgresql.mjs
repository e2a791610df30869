// FerretDB on PostgreSQL for bench/reads.bench.mjs (BENCH_DB=ferretdb-postgresql),
// with stand-in indexes PostgreSQL can use.
//
// Why the stand-ins: FerretDB 1.24 creates a btree index on `_jsonb -> 'field'`
// for each index Hangar declares, but pushes an equality filter down as the
// containment test `_jsonb -> 'field' @> value`, which no btree serves. Every
// query is then a Seq Scan, and a read benchmark measures FerretDB decoding
// every document of the collection, not Hangar. For each declared index, read
// from FerretDB's own catalogue, this adds a GIN index over the same fields:
// GIN serves `@>`, so the filter Hangar sends is answered through an index, as
// MongoDB answers it through the declared one. An index Hangar does not declare
// gets no stand-in, so a query without its index still shows up as a scan.
// These are figures for FerretDB + PostgreSQL with those indexes, not MongoDB's:
// FerretDB still decodes every document PostgreSQL returns (about 0.2 ms each
// here), which MongoDB does not.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function psql(url, sql) {
  // Quiet: "already exists, skipping" notices on the second pass are expected.
  const env = { ...process.env, PGOPTIONS: '-c client_min_messages=warning' };
  return execFileSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qtAc', sql], { encoding: 'utf8', env }).trim();
}

function databaseUrl(name) {
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Starts FerretDB on a fresh PostgreSQL database; returns its MongoDB URL and a stop(). */
export async function startFerretdbOnPostgres({ root, name, port }) {
  const infra = await import(path.join(root, 'libs/infra/dist/index.js'));
  psql(PG_URL, `CREATE DATABASE ${name}`);
  // FerretDB sends the field name as a parameter (`_jsonb -> $1 @> $2`) through
  // named prepared statements. After five runs PostgreSQL switches such a
  // statement to a generic plan, in which `_jsonb -> $1` matches no index
  // expression, and every query turns back into a Seq Scan (10 ms instead of
  // 0.03 ms for a lookup by _id, measured). Custom plans see the field name.
  psql(PG_URL, `ALTER DATABASE ${name} SET plan_cache_mode = force_custom_plan`);
  const child = infra.spawnManaged({
    name: 'ferretdb-postgresql',
    command: infra.ferretdbBinary(),
    // A bounded pool leaves PostgreSQL's default 100 connections room for psql.
    args: ['-listen', `127.0.0.1:${port}`, '-postgresql-url', `${databaseUrl(name)}?pool_max_conns=50`],
    logFile: path.join(root, '.hangar', 'bench', 'logs', 'ferretdb-postgresql.log'),
  });
  await infra.waitFor('FerretDB (PostgreSQL)', () => infra.isListening('127.0.0.1', port), { timeoutMs: 30_000 });
  return {
    mongoUrl: `mongodb://127.0.0.1:${port}`,
    pid: child.child.pid,
    async stop() {
      await child.stop(5_000);
      psql(PG_URL, `DROP DATABASE IF EXISTS ${name}`);
    },
  };
}

/**
 * One GIN index per index declared in the FerretDB databases whose names start
 * with `prefix`, over the same fields. Returns what it created, for the report.
 */
export function addStandInIndexes(name, prefix) {
  const url = databaseUrl(name);
  const schemas = psql(url, `SELECT nspname FROM pg_namespace WHERE nspname LIKE '${prefix}%'`).split('\n').filter(Boolean);
  const created = [];
  for (const schema of schemas) {
    const rows = psql(url, `SELECT _jsonb::text FROM "${schema}"._ferretdb_database_metadata`).split('\n').filter(Boolean);
    for (const row of rows) {
      const collection = JSON.parse(row);
      for (const index of collection.indexes ?? []) {
        // The order of the fields (and their direction) means nothing to GIN.
        const fields = Object.keys(index.key);
        const expressions = fields.map((f) => (f.includes('.') ? `(_jsonb #> '{${f.split('.').join(',')}}')` : `(_jsonb -> '${f}')`));
        psql(url, `CREATE INDEX IF NOT EXISTS "${index.pgindex.slice(0, 55)}_gin" ON "${schema}"."${collection.table}" USING gin (${expressions.join(', ')})`);
        created.push(`${schema}.${collection._id} {${fields.join(', ')}}`);
      }
      psql(url, `ANALYZE "${schema}"."${collection.table}"`);
    }
  }
  return created;
}

/**
 * Whether a PostgreSQL plan from FerretDB's explain reaches its rows through an
 * index, or could: on a table of a few rows PostgreSQL rightly prefers a Seq
 * Scan even where an index serves the filter (MongoDB's planner would use the
 * index). So each Seq Scan's pushed-down filter is planned again with
 * sequential scans disabled; if PostgreSQL still scans, no index serves it.
 * A Seq Scan without a filter means FerretDB pushed nothing down (it pushes
 * down equality only, not `$in` or ranges): a scan whatever the indexes.
 */
export function planVerdict(name, queryPlanner) {
  const scans = [];
  const walk = (node) => {
    if (node['Node Type'] === 'Seq Scan') scans.push(node);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(queryPlanner.Plan);
  if (scans.length === 0) return 'uses an index';
  for (const scan of scans) {
    if (!scan.Filter) return 'SCANS THE COLLECTION (nothing pushed down)';
    const table = `"${scan.Schema}"."${scan['Relation Name']}"`;
    const sql = `SET enable_seqscan = off; EXPLAIN SELECT _jsonb FROM ${table} WHERE ${scan.Filter}`;
    if (/Seq Scan/.test(psql(databaseUrl(name), sql))) return 'SCANS THE COLLECTION (no index serves the filter)';
  }
  return `uses an index (PostgreSQL scans ${scans.map((s) => s['Plan Rows']).join(', ')} row(s) instead)`;
}
