import fs from 'node:fs';
import path from 'node:path';
import { DATABASE_SERVICES, serviceDatabaseName, serviceDatabaseNames } from '@hangar/config';
import { SERVICES } from '@hangar/infra';
import { configLoader, configProblems, hangarProcesses, REPO_ROOT } from './config-schemas';

/**
 * The one MongoDB user of an installation needs readWrite on every service's database. Which
 * databases those are is read from the services' own config schemas (the MONGO_DB each process
 * uses unless told otherwise), held to the list in libs/config (`DATABASE_SERVICES`) that the
 * schemas and the launcher take their names from, and docs/operations.md's user is held to it:
 * a service that gets a database, or a role left out of the docs, fails here.
 */

/** Enough for every process's schema to load: its required connection settings. */
const ENV = {
  MONGO_URL: 'mongodb://mongo:27017',
  NATS_URL: 'nats://nats:4222',
  S3_ENDPOINT: 'http://s3:9000',
  S3_ACCESS_KEY: 'access',
  S3_SECRET_KEY: 'secret',
};

/** Each process's database as its config schema names it by default; processes with none left out. */
function databasesOfConfigs(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of hangarProcesses()) {
    const load = configLoader(name);
    expect({ name, problems: configProblems(load, ENV) }).toEqual({ name, problems: [] });
    const database = load(ENV).MONGO_DB;
    if (database !== undefined) out[name] = String(database);
  }
  return out;
}

const operations = () => fs.readFileSync(path.join(REPO_ROOT, 'docs', 'operations.md'), 'utf8');

/** The fenced block of docs/operations.md that contains `marker`. */
function blockWith(markdown: string, marker: string): string {
  const block = markdown.split('```').find((part, i) => i % 2 === 1 && part.includes(marker));
  if (!block) throw new Error(`docs/operations.md has no code block with ${marker}`);
  return block;
}

describe("the MongoDB user's databases", () => {
  it("when the services' config schemas are read, then every database they use is in libs/config's list, named as the list names it, and nothing else is", () => {
    const databases = databasesOfConfigs();
    expect(Object.keys(databases).sort()).toEqual([...DATABASE_SERVICES].sort());
    for (const [name, database] of Object.entries(databases)) expect({ name, database }).toEqual({ name, database: serviceDatabaseName(name as (typeof DATABASE_SERVICES)[number]) });
  });

  it('when `npm run up` starts the services, then each is one with a database in the list (the launcher names them from it, with HANGAR_DB_PREFIX)', () => {
    expect([...SERVICES].sort()).toEqual([...DATABASE_SERVICES].sort());
    expect(serviceDatabaseNames('staging')).toEqual(DATABASE_SERVICES.map((s) => `staging_${s.replace(/-/g, '_')}`));
  });

  it('when docs/operations.md creates the user (the operator resource and mongosh), then it grants readWrite on exactly those databases', () => {
    const docs = operations();
    const wanted = [...serviceDatabaseNames()].sort();
    const operatorRoles = [...blockWith(docs, 'kind: MongoDBCommunity').matchAll(/\{\s*name:\s*readWrite,\s*db:\s*([A-Za-z0-9_]+)\s*\}/g)].map((m) => m[1]);
    expect(operatorRoles.sort()).toEqual(wanted);
    const shellRoles = [...blockWith(docs, 'createUser(').matchAll(/\{\s*role:\s*'readWrite',\s*db:\s*'([A-Za-z0-9_]+)'\s*\}/g)].map((m) => m[1]);
    expect(shellRoles.sort()).toEqual(wanted);
  });
});
