import fs from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { REPO_ROOT } from '@hangar/infra';
import type { LoggedQuery } from '@hangar/mongo';
import { explainRecordedQuery, listQuerySites, testInfrastructure, type QuerySite } from '@hangar/testing';

/**
 * The plan check: every query Hangar's code makes is answered from
 * an index on the default engine. `npm test` runs the unit, component and
 * end-to-end suites with HANGAR_QUERY_LOG_DIR set, so every service records
 * the queries it sends and the code that sent them (libs/mongo query-log.ts);
 * then this file runs. It lists the query sites from the code, requires each
 * to have been seen, and explains every recorded query shape.
 */

const LOG_DIR = process.env.HANGAR_QUERY_LOG_DIR ?? path.join(REPO_ROOT, '.hangar', 'query-log');

/**
 * Queries that read a whole collection because the answer is the whole
 * collection, or a sweep that must look at every document. Each says why;
 * keyed by `<function>|<collection>|<filter shape>`.
 */
const LIVE_ONLY = '{"deletedAt":{"$exists":"<boolean>"}}';
const WHOLE_COLLECTION_BY_DESIGN: Record<string, string> = {
  'AppTreesRepository.page|app_trees|{}':
    "a global admin's list of every app (one tree per live app: every tree matches). FerretDB 1.24 cannot push the sort and limit down; on MongoDB the { createdAt, _id } index serves the page",
  // The apps list's repair at start (services/apps domain/app-trees.ts) compares every tree with its app, once per start.
  'AppTreesRepository.all|app_trees|{}': "the apps list's repair at start reads every tree, once per start",
  [`AppsRepository.allLive|apps|${LIVE_ONLY}`]: "the apps list's repair at start reads every live app, once per start",
  [`SchemesRepository.allLive|schemes|${LIVE_ONLY}`]: "the apps list's repair at start reads every live scheme, once per start",
  [`ChannelsRepository.allLive|channels|${LIVE_ONLY}`]: "the apps list's repair at start reads every live channel, once per start",
  [`UsersRepository.page|users|${LIVE_ONLY}`]: "an admin's list of every user: every live user matches (as above, the _id index serves the page on MongoDB)",
  // The one-time move of webhooks out of the apps service carries every record it kept.
  'LegacyWebhooksRepository.webhooks|webhooks|{}': 'the move of webhooks to their own service reads every legacy webhook, once',
  'LegacyWebhooksRepository.deliveries|webhook_deliveries|{}': 'the move of webhooks to their own service reads every legacy delivery, once',
  'LegacyWebhooksRepository.attempts|webhook_attempts|{}': 'the move of webhooks to their own service reads every legacy attempt (the delivery log), once',
};

function loggedQueries(): LoggedQuery[] {
  if (!fs.existsSync(LOG_DIR)) return [];
  return fs
    .readdirSync(LOG_DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => fs.readFileSync(path.join(LOG_DIR, f), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as LoggedQuery)
    .filter((q) => q.origin !== 'unknown');
}

/** `ReleasesRepository.findById (services/releases/src/data/releases.repository)` → its parts. */
function originParts(origin: string): { name: string; file: string } {
  const match = /^(.*) \((.*)\)$/.exec(origin);
  return { name: match?.[1] ?? origin, file: match?.[2] ?? '' };
}

function ran(site: QuerySite, queries: LoggedQuery[]): boolean {
  const method = site.functionName.split('.').pop()!;
  return queries.some((q) => {
    const { name, file } = originParts(q.origin);
    return file === site.file && (name === site.functionName || name.split('.').pop() === method);
  });
}

/** The recorded shape without its database: each e2e Hangar has its own. */
function shapeKey(q: LoggedQuery): string {
  const [origin, , operation, filter, sort] = q.shape.split('|');
  return `${originParts(origin!).name}|${q.collection}|${operation}|${filter}|${sort}`;
}

/**
 * Where to explain a recorded query: the database of its service holding that collection with
 * the most indexes — its own when none has more. Its own may be gone (component tests drop
 * their databases afterwards) or a husk: a service still running when its test dropped its
 * database writes once more and FerretDB makes the collection again, without the declared
 * indexes (seen: a webhooks component test's `webhook_deliveries` with only `_id`, which failed
 * the check in one CI run and not in the next). Every installation declares the same indexes, so
 * the fullest copy is the one that shows what the code's indexes serve.
 */
async function databaseHolding(mongo: MongoClient): Promise<(q: LoggedQuery) => Promise<string | undefined>> {
  const { databases } = await mongo.db('admin').admin().listDatabases({ nameOnly: true });
  const names = databases.map((d) => d.name);
  const collections = new Map<string, Promise<Set<string>>>();
  const holds = (db: string, collection: string) => {
    if (!collections.has(db)) collections.set(db, mongo.db(db).listCollections({}, { nameOnly: true }).toArray().then((cs) => new Set(cs.map((c) => c.name))));
    return collections.get(db)!.then((set) => set.has(collection));
  };
  const indexCounts = new Map<string, Promise<number>>();
  const indexCount = (db: string, collection: string) => {
    const key = `${db}.${collection}`;
    if (!indexCounts.has(key)) indexCounts.set(key, mongo.db(db).collection(collection).indexes().then((ixs) => ixs.length));
    return indexCounts.get(key)!;
  };
  return async (q) => {
    const service = SERVICE_DATABASES.find((s) => q.database.endsWith(`_${s}`));
    const candidates = [q.database, ...names.filter((n) => n !== q.database && service && n.endsWith(`_${service}`))];
    let best: { db: string; indexes: number } | undefined;
    for (const db of candidates) {
      if (!names.includes(db) || !(await holds(db, q.collection))) continue;
      const indexes = await indexCount(db, q.collection);
      if (!best || indexes > best.indexes) best = { db, indexes };
    }
    return best?.db;
  };
}

const SERVICE_DATABASES = ['debug_files', 'releases', 'users', 'apps', 'webhooks'];

describe('query plans on the default engine', () => {
  const queries = loggedQueries();

  it('when the suites have run, then they recorded queries', () => {
    expect(queries.length).toBeGreaterThan(50);
  });

  it('when the code is read, then every query site in it was seen running', () => {
    const sites = listQuerySites(REPO_ROOT);
    expect(sites.length).toBeGreaterThan(40);
    const unseen = sites.filter((s) => !ran(s, queries)).map((s) => `${s.file}.ts:${s.line} ${s.functionName} (${s.method}) never ran in the suites`);
    expect(unseen).toEqual([]);
  });

  it('when every recorded query is explained, then an index answers each one', async () => {
    const { mongoUrl } = testInfrastructure();
    const postgresUrl = process.env.HANGAR_TEST_POSTGRES_URL;
    const mongo = new MongoClient(mongoUrl, { directConnection: true });
    await mongo.connect();
    const scans: string[] = [];
    const byShape = new Map<string, LoggedQuery>();
    for (const q of queries) if (!byShape.has(shapeKey(q))) byShape.set(shapeKey(q), q);
    try {
      const where = await databaseHolding(mongo);
      for (const [key, q] of byShape) {
        const [name, collection, , filter] = key.split('|');
        if (WHOLE_COLLECTION_BY_DESIGN[`${name}|${collection}|${filter}`]) continue;
        const database = await where(q);
        if (!database) {
          scans.push(`${key}: no database holds ${q.collection} any more, nothing to explain it on`);
          continue;
        }
        const verdict = await explainRecordedQuery(mongo, postgresUrl, { ...q, database }).catch((err: Error) => ({ indexed: false, detail: `explain failed: ${err.message}` }));
        if (!verdict.indexed) scans.push(`${key}: ${verdict.detail}`);
      }
    } finally {
      await mongo.close();
    }
    expect(scans).toEqual([]);
  }, 600_000);
});
