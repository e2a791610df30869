import { newPgClient } from './postgres';

/**
 * Makes PostgreSQL answer FerretDB 1.24's pushed-down filters from an index.
 *
 * FerretDB creates a btree index on `(_jsonb -> 'field')` for each index a
 * service declares, but pushes an equality filter down as the containment
 * test `_jsonb -> 'field' @> value`, which no btree serves: every query would
 * be a Seq Scan. A GIN index over the same expressions serves `@>`. An event
 * trigger gives every btree index FerretDB creates, now or later, its GIN twin
 * in the same transaction; `hangar_ensure_gin_twins()` adds the ones missing
 * on tables created before the trigger existed (an older database, or a
 * POSTGRES_URL whose role may not create event triggers).
 *
 * Sort and limit are not pushed down by FerretDB 1.24 (only `$natural` on
 * capped collections, and a limit without filter or sort): FerretDB sorts the
 * matching documents itself. The btree indexes stay: they enforce uniqueness.
 */
const TWIN_FUNCTIONS = String.raw`
CREATE OR REPLACE FUNCTION hangar_gin_twin(btree_index oid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  index_name text;
  table_oid oid;
  column_count int;
  expressions text;
BEGIN
  SELECT c.relname, i.indrelid, i.indnatts INTO index_name, table_oid, column_count
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
   WHERE i.indexrelid = btree_index AND am.amname = 'btree';
  IF index_name IS NULL OR index_name LIKE '%\_gin' THEN RETURN; END IF;
  -- Only indexes over _jsonb expressions (FerretDB's), not _ferretdb_* metadata keys.
  SELECT string_agg(pg_get_indexdef(btree_index, k, true), ', ' ORDER BY k) INTO expressions
    FROM generate_series(1, column_count) k;
  IF expressions IS NULL OR expressions NOT LIKE '%_jsonb%' THEN RETURN; END IF;
  EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %s USING gin (%s)',
                 left(index_name, 59) || '_gin', table_oid::regclass, expressions);
END $$;

CREATE OR REPLACE FUNCTION hangar_ensure_gin_twins() RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
  r record;
  n int := 0;
BEGIN
  FOR r IN
    SELECT i.indexrelid
      FROM pg_index i
      JOIN pg_class c ON c.oid = i.indexrelid
      JOIN pg_am am ON am.oid = c.relam
      JOIN pg_namespace ns ON ns.oid = c.relnamespace
     WHERE am.amname = 'btree'
       AND ns.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
       AND c.relname NOT LIKE '%\_gin'
       AND NOT EXISTS (SELECT 1 FROM pg_class t WHERE t.relname = left(c.relname, 59) || '_gin' AND t.relnamespace = c.relnamespace)
  LOOP
    PERFORM hangar_gin_twin(r.indexrelid);
    n := n + 1;
  END LOOP;
  RETURN n;
END $$;
`;

const TWIN_TRIGGER = String.raw`
CREATE OR REPLACE FUNCTION hangar_gin_twin_on_create() RETURNS event_trigger
LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT objid FROM pg_event_trigger_ddl_commands() WHERE object_type = 'index' LOOP
    PERFORM hangar_gin_twin(r.objid);
  END LOOP;
END $$;

DROP EVENT TRIGGER IF EXISTS hangar_gin_twins;
CREATE EVENT TRIGGER hangar_gin_twins ON ddl_command_end
  WHEN TAG IN ('CREATE INDEX') EXECUTE FUNCTION hangar_gin_twin_on_create();
`;

export interface TwinSetup {
  /** False when the role may not create event triggers (not a superuser). */
  trigger: boolean;
  /** GIN twins added for indexes that existed without one. */
  added: number;
}

/** Installs the twin functions (and the trigger where allowed) and fills in missing twins. */
export async function installIndexTwins(databaseUrl: string): Promise<TwinSetup> {
  const client = newPgClient({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Two launchers on one database (tests, replicas) would race on CREATE OR REPLACE.
    await client.query('SELECT pg_advisory_lock(hashtext($1))', ['hangar_gin_twins']);
    await client.query(TWIN_FUNCTIONS);
    const role = await client.query<{ rolsuper: boolean }>('SELECT rolsuper FROM pg_roles WHERE rolname = current_user');
    const trigger = role.rows[0]?.rolsuper === true;
    if (trigger) await client.query(TWIN_TRIGGER);
    const added = await client.query<{ n: number }>('SELECT hangar_ensure_gin_twins() AS n');
    return { trigger, added: added.rows[0]?.n ?? 0 };
  } finally {
    await client.end();
  }
}

/** Adds the twins of indexes created since the last call (for a database without the trigger). */
export async function ensureIndexTwins(databaseUrl: string): Promise<number> {
  const client = newPgClient({ connectionString: databaseUrl });
  await client.connect();
  try {
    const added = await client.query<{ n: number }>('SELECT hangar_ensure_gin_twins() AS n');
    return added.rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}
