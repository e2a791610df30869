import crypto from 'node:crypto';
import type { ObjectStorage } from './object-storage';

/**
 * An installation that knows itself. At its first start Hangar writes one id into its
 * database (a small `installation` collection of the service) and into its bucket (this marker
 * object); every start, and every janitor sweep, checks that both sides still agree. A database
 * that went missing, is empty, or is another one — a wrong MONGO_URL / MONGO_DB, a PostgreSQL
 * cluster made again — beside a bucket full of Hangar's objects then stops the start instead of
 * letting the janitor take those objects for orphans.
 */
export const INSTALLATION_MARKER = '.hangar/installation.json';

/** The database side: one document per service database. */
export interface InstallationRecord {
  /** The id the database holds, if any. */
  read(): Promise<string | undefined>;
  /** Records `id` unless one is recorded already (atomically); answers the recorded one. */
  claim(id: string): Promise<string>;
  /** Records `id` in place of any other (adopting a bucket). */
  replace(id: string): Promise<void>;
  /** Whether the database holds records that refer to objects in the bucket (live or tombstoned). */
  holdsRecords(): Promise<boolean>;
}

export interface InstallationCheck {
  storage: ObjectStorage;
  database: InstallationRecord;
  /** The prefixes whose objects the database's records refer to. */
  prefixes: readonly string[];
  /** Only the releases service makes a new id; others join the one in the bucket (until then: 'pending'). */
  mayCreate: boolean;
  /** HANGAR_ADOPT_BUCKET: the bucket's id, to be recorded in this database whatever it held. */
  adopt?: string;
  /** The two sides as the message names them (no credentials): e.g. `database "hangar_releases"`, `bucket "hangar" at http://…`. */
  databaseName: string;
  bucketName: string;
  /** Told of what the check did (a new id, a bucket adopted). */
  log?(message: string, fields: Record<string, unknown>): void;
  /**
   * The id this process has already found on both sides. A check while running only compares:
   * a database that lost the id since was dropped or replaced under the process, and joining
   * the bucket's id then (as a database from before the ids may at a start) would let the
   * janitor take every object the lost records referred to.
   */
  known?: string;
}

export type InstallationState = { state: 'matched'; id: string } | { state: 'pending' };

/** The database and the bucket are not one installation: the start stops, the janitor sweeps nothing. */
export class InstallationMismatch extends Error {
  constructor(
    readonly reason: string,
    check: Pick<InstallationCheck, 'databaseName' | 'bucketName'>,
    ids: { database?: string; bucket?: string },
  ) {
    super(
      `${reason}: ${check.databaseName} holds installation id ${ids.database ?? '(none)'}, ${check.bucketName} holds ${ids.bucket ?? '(none)'}. ` +
        'Nothing was changed and nothing will be removed. Either point MONGO_URL / MONGO_DB (HANGAR_DB_PREFIX) at the database that belongs to this bucket, ' +
        'or restore that database from a backup, or — only if this database is to take over the bucket as it is — start once with ' +
        `HANGAR_ADOPT_BUCKET=${ids.bucket ?? '<the bucket\'s id>'} (docs/operations.md, Installation id)`,
    );
    this.name = 'InstallationMismatch';
  }
}

async function readMarker(storage: ObjectStorage): Promise<string | undefined> {
  if (!(await storage.exists(INSTALLATION_MARKER))) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.getStream(INSTALLATION_MARKER)) chunks.push(chunk as Buffer);
  const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown }).id;
  if (typeof id !== 'string' || id === '') throw new Error(`${INSTALLATION_MARKER} in the bucket holds no installation id`);
  return id;
}

const writeMarker = (storage: ObjectStorage, id: string) =>
  storage.putBuffer(INSTALLATION_MARKER, Buffer.from(`${JSON.stringify({ id, createdAt: new Date().toISOString() })}\n`), 'application/json');

async function bucketHoldsObjects(storage: ObjectStorage, prefixes: readonly string[]): Promise<boolean> {
  for (const prefix of prefixes) {
    for await (const page of storage.listObjectPages(prefix, 1)) if (page.length > 0) return true;
  }
  return false;
}

/** The id in the bucket, or none (for tests and the adopt command). */
export const installationIdOfBucket = readMarker;

/**
 * Checks (and at a first start, makes) the installation id on both sides; throws
 * InstallationMismatch when they do not belong together. Idempotent and safe to run by several
 * replicas at once: the database side is claimed atomically, and the marker only ever holds it.
 */
export async function checkInstallation(check: InstallationCheck): Promise<InstallationState> {
  const { storage, database } = check;
  const [inDatabase, inBucket] = [await database.read(), await readMarker(storage)];
  const mismatch = (reason: string) => new InstallationMismatch(reason, check, { database: inDatabase, bucket: inBucket });

  if (check.known) {
    if (inDatabase === check.known && inBucket === check.known) return { state: 'matched', id: check.known };
    if (!inDatabase) throw mismatch('The database lost its installation id while Hangar ran (dropped or replaced)');
    throw mismatch(inBucket === inDatabase ? 'The database and the bucket changed together while Hangar ran' : 'The database and the bucket belong to different installations');
  }
  if (check.adopt) {
    if (check.adopt !== inBucket) throw mismatch(`HANGAR_ADOPT_BUCKET=${check.adopt} is not the id of the bucket`);
    if (inDatabase !== inBucket) {
      await database.replace(inBucket);
      check.log?.('adopted the bucket: its installation id is now recorded in this database (HANGAR_ADOPT_BUCKET)', { id: inBucket, replaced: inDatabase ?? null });
    }
    return { state: 'matched', id: inBucket };
  }
  if (inDatabase && inBucket) {
    if (inDatabase !== inBucket) throw mismatch('The database and the bucket belong to different installations');
    return { state: 'matched', id: inDatabase };
  }
  if (inDatabase) {
    // No marker yet (another replica is writing it, or the bucket is new): a bucket holding objects
    // of ours is taken as this installation's only beside records (a bucket from before the ids).
    if (!(await database.holdsRecords()) && (await bucketHoldsObjects(storage, check.prefixes))) {
      throw mismatch("The bucket holds Hangar's objects but no installation id, and the database holds no records");
    }
    await writeMarker(storage, inDatabase);
    return { state: 'matched', id: inDatabase };
  }
  const holdsRecords = await database.holdsRecords();
  if (!holdsRecords && (await bucketHoldsObjects(storage, check.prefixes))) {
    throw mismatch("The database is empty but the bucket holds Hangar's objects");
  }
  if (inBucket) {
    // A database from before installation ids (it holds records), or one with nothing to lose
    // beside a bucket holding nothing of its kind: it joins the bucket's installation.
    const id = await database.claim(inBucket);
    if (id !== inBucket) throw new InstallationMismatch('The database and the bucket belong to different installations', check, { database: id, bucket: inBucket });
    check.log?.('installation id recorded in this database (from the bucket)', { id });
    return { state: 'matched', id };
  }
  if (!check.mayCreate) return { state: 'pending' };
  const id = await database.claim(crypto.randomUUID());
  await writeMarker(storage, id);
  check.log?.('installation id made and recorded in the database and the bucket', { id });
  return { state: 'matched', id };
}

export interface InstallationGuard {
  /** Whether the two sides are (still) one installation: asked before every janitor sweep. */
  matches(): Promise<boolean>;
}

/**
 * The check at a service's start — a mismatch throws, and the service does not start — and
 * again before every sweep of its janitor: a database dropped or swapped while running makes
 * the janitor sweep nothing (logged at error once per change, and counted by the janitor).
 */
export async function guardInstallation(
  check: InstallationCheck & { logger: { info(o: object, m: string): void; warn(o: object, m: string): void; error(o: object, m: string): void } },
): Promise<InstallationGuard> {
  const { logger } = check;
  const withLog: InstallationCheck = { ...check, log: (message, fields) => logger.warn(fields, message) };
  let first: InstallationState;
  try {
    first = await checkInstallation(withLog);
    if (first.state === 'matched') logger.info({ installationId: first.id }, 'installation id checked: the database and the bucket belong together');
    else logger.info({}, 'no installation id in the bucket yet: the janitor waits for the releases service to record one');
  } catch (err) {
    if (err instanceof InstallationMismatch) logger.error({ reason: err.reason }, err.message);
    throw err;
  }
  let lastReason: string | undefined;
  // Once matched, every later check only compares with this id (see InstallationCheck.known).
  let known = first.state === 'matched' ? first.id : undefined;
  return {
    async matches() {
      try {
        const state = await checkInstallation({ ...withLog, ...(known ? { known } : {}) });
        lastReason = undefined;
        if (state.state === 'matched') known = state.id;
        return state.state === 'matched';
      } catch (err) {
        if (!(err instanceof InstallationMismatch)) throw err;
        if (lastReason !== err.reason) logger.error({ reason: err.reason }, err.message);
        lastReason = err.reason;
        return false;
      }
    },
  };
}
