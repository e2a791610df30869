import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import mongoose from 'mongoose';
import { unbundledFrame } from './bundle-frames';

/**
 * Records every query shape this process sends, with the code that made it,
 * for the plan check (`tests/e2e/query-plans.test.ts`), which explains each
 * one on the default engine and fails when one scans a collection. Switched on
 * by HANGAR_QUERY_LOG_DIR; never in production.
 *
 * The origin is the first named function of Hangar's own code on the stack
 * when the query was built (in a service's bundle, the frame's module is read
 * from the bundle: bundle-frames.ts): for a mongoose query that is when the model's
 * static (`find`, `findOne`…) is called — by exec time the repository method
 * has already returned the query — and for a driver call (the counters, the
 * job turns) the call itself.
 */
export interface LoggedQuery {
  origin: string;
  database: string;
  collection: string;
  operation: string;
  /** Extended JSON, so ids and dates explain as they were sent. */
  filter: string;
  sort?: string;
  shape: string;
}

/** Every model method that sends a query with a filter: recorded here, and looked for in the code by the plan check. */
export const QUERY_METHODS = [
  'find',
  'findOne',
  'findById',
  'countDocuments',
  'exists',
  'distinct',
  'findOneAndUpdate',
  'findByIdAndUpdate',
  'findOneAndDelete',
  'findByIdAndDelete',
  'findOneAndReplace',
  'updateOne',
  'updateMany',
  'replaceOne',
  'deleteOne',
  'deleteMany',
  'aggregate',
] as const;

/**
 * The driver's collection methods among them (the rest are mongoose's own).
 * Not the driver's findOne: it calls find, which records it.
 */
const MONGOOSE_ONLY = new Set<string>(['findOne', 'findById', 'exists', 'findByIdAndUpdate', 'findByIdAndDelete']);
const DRIVER_METHODS = QUERY_METHODS.filter((m) => !MONGOOSE_ONLY.has(m));

const originStore = new AsyncLocalStorage<string>();
const ORIGIN = Symbol('hangar.queryOrigin');
let installed: string | undefined;

export function recordQueries(directory: string, processName: string): void {
  if (installed) return;
  fs.mkdirSync(directory, { recursive: true });
  installed = path.join(directory, `${processName}-${process.pid}.jsonl`);
  const file = installed;
  const seen = new Set<string>();
  const write = (entry: Omit<LoggedQuery, 'shape'>) => {
    const shape = `${entry.origin}|${entry.database}.${entry.collection}|${entry.operation}|${shapeOf(entry.filter)}|${entry.sort ?? ''}`;
    if (seen.has(shape)) return;
    seen.add(shape);
    fs.appendFileSync(file, `${JSON.stringify({ ...entry, shape })}\n`);
  };

  const Model = mongoose.Model as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of QUERY_METHODS) {
    const original = Model[name]!;
    Model[name] = function (this: unknown, ...args: unknown[]) {
      const built = original.apply(this, args) as Record<symbol, unknown> | undefined;
      if (built && typeof built === 'object') built[ORIGIN] = callerOf(new Error().stack);
      return built;
    };
  }
  for (const Built of [mongoose.Query, mongoose.Aggregate] as unknown as { prototype: Record<string | symbol, unknown> }[]) {
    const exec = Built.prototype.exec as (...args: unknown[]) => unknown;
    Built.prototype.exec = function (this: Record<symbol, unknown>, ...args: unknown[]) {
      const origin = this[ORIGIN];
      return typeof origin === 'string' ? originStore.run(origin, () => exec.apply(this, args)) : exec.apply(this, args);
    };
  }

  const Collection = mongoose.mongo.Collection.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of DRIVER_METHODS) {
    const original = Collection[name]!;
    Collection[name] = function (this: { dbName: string; collectionName: string }, ...args: unknown[]) {
      try {
        const origin = originStore.getStore() ?? callerOf(new Error().stack);
        const [filter, sort] =
          name === 'aggregate'
            ? firstMatch(args[0])
            : name === 'distinct' // distinct(key, filter)
              ? [args[1] ?? {}, undefined]
              : [args[0] ?? {}, (args[name === 'find' ? 1 : 2] as { sort?: unknown } | undefined)?.sort];
        write({
          origin,
          database: this.dbName,
          collection: this.collectionName,
          operation: name,
          filter: mongoose.mongo.BSON.EJSON.stringify(filter as object, { relaxed: false }),
          ...(sort && Object.keys(sort as object).length > 0 ? { sort: JSON.stringify(sort) } : {}),
        });
      } catch {
        // Recording must never break the query it records.
      }
      return original.apply(this, args);
    };
  }
}

/** The `$match` a pipeline starts with, which is what reaches the database's filter. */
function firstMatch(pipeline: unknown): [object, unknown] {
  const stages = Array.isArray(pipeline) ? (pipeline as Record<string, unknown>[]) : [];
  const match = stages[0]?.$match as object | undefined;
  const sortStage = stages.find((s) => s.$sort)?.$sort;
  return [match ?? {}, sortStage];
}

/** The filter with its values replaced by their kinds: queries that differ only in values are one shape. */
function shapeOf(ejson: string): string {
  const walk = (value: unknown): unknown => {
    // `$in: [a, b, c]` and `$in: [a]` are one shape: the length is a value too.
    if (Array.isArray(value)) return value.length > 0 ? [walk(value[0])] : [];
    if (value && typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>);
      const only = entries.length === 1 ? entries[0]![0] : undefined;
      if (only?.startsWith('$') && !/^\$(and|or|nor|not|in|nin|elemMatch|exists)$/.test(only)) {
        return `<${only}>`; // an extended-JSON value such as {"$numberInt": "5"}
      }
      return Object.fromEntries(entries.map(([k, v]) => [k, walk(v)]));
    }
    return `<${typeof value}>`;
  };
  return JSON.stringify(walk(JSON.parse(ejson)));
}

const OWN_CODE = /\/(services|libs)\/([^/]+)\/(dist|src)\/(.+)\.[jt]s:\d+:\d+\)?$/;

/** "ReleasesRepository.findById (services/releases/src/data/releases.repository)". */
function callerOf(stack: string | undefined): string {
  for (const line of (stack ?? '').split('\n').slice(1).map(unbundledFrame)) {
    const match = OWN_CODE.exec(line);
    // This file and findEach only pass a query on; its origin is their caller.
    if (!match || (match[2] === 'mongo' && (match[4] === 'query-log' || match[4] === 'find-each'))) continue;
    // `at ReleasesRepository.findById (…)`, or under source maps `at AppsRepository.findOne [as findByEnsureKey] (…)`.
    const frame = /^\s*at (?:async )?([\w$.<>]+)(?: \[as ([\w$]+)\])? \(/.exec(line);
    const alias = frame?.[2];
    const name = alias ? `${frame[1]!.split('.')[0]}.${alias}` : frame?.[1];
    if (!name || name.includes('<anonymous>')) continue;
    return `${name.replace(/^Function\./, '')} (${match[1]}/${match[2]}/src/${match[4]})`;
  }
  return 'unknown';
}
