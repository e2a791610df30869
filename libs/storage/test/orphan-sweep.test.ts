import { Unavailable } from '@hangar/errors';
import { closedPort, nextStorageSecond, testInfrastructure, uniqueName } from '@hangar/testing';
import { IncompleteUpload, ListedObject, ObjectStorage, sweepOrphans } from '../src';

const infra = testInfrastructure();
const bucket = uniqueName('listing-test');
const storage = new ObjectStorage({ ...infra.s3, bucket });

async function all<T>(pages: AsyncGenerator<T[]>): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let count = 0;
  for await (const page of pages) {
    items.push(...page);
    count += 1;
  }
  return { items, pages: count };
}

/** The primitives the orphan janitor is made of, and one sweep, against the real S3 server. */
describe('ObjectStorage listing and aborting, and sweepOrphans', () => {
  beforeAll(() => storage.ensureBucket());

  afterAll(async () => {
    for await (const page of storage.listObjectPages('')) for (const o of page) await storage.delete(o.key);
    for await (const page of storage.listIncompleteUploadPages('')) for (const u of page) await storage.abortIncompleteUpload(u.key, u.uploadId);
    await storage.client.removeBucket(bucket);
  });

  it('when objects are listed in pages of 2, then every object under the prefix comes once, in key order, with size and time, and nothing outside it', async () => {
    const prefix = `${uniqueName('pages')}/`;
    const keys = ['a', 'b', 'c', 'd', 'e'].map((k) => `${prefix}${k}`);
    const before = Date.now();
    for (const [i, key] of keys.entries()) await storage.putBuffer(key, Buffer.alloc(i + 1, 1));
    await storage.putBuffer(`${prefix.slice(0, -1)}-other/x`, Buffer.from('not under the prefix'));

    const { items, pages } = await all(storage.listObjectPages(prefix, 2));

    expect(pages).toBe(3);
    expect(items.map((o: ListedObject) => [o.key, o.size])).toEqual(keys.map((k, i) => [k, i + 1]));
    for (const o of items) {
      // S3 times have second precision.
      expect(o.lastModified.getTime()).toBeGreaterThanOrEqual(before - 1_000);
      expect(o.lastModified.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
    }
  });

  it('when a prefix holds nothing, then no page is produced', async () => {
    expect(await all(storage.listObjectPages(`${uniqueName('empty')}/`))).toEqual({ items: [], pages: 0 });
  });

  it('when multipart uploads are begun and never finished, then they are listed with their start, and abort removes them (twice is fine)', async () => {
    const prefix = `${uniqueName('mpu')}/`;
    const before = Date.now();
    const first = await storage.client.initiateNewMultipartUpload(bucket, `${prefix}one`, {});
    const second = await storage.client.initiateNewMultipartUpload(bucket, `${prefix}two`, {});

    const { items } = await all(storage.listIncompleteUploadPages(prefix));

    expect(items.map((u: IncompleteUpload) => [u.key, u.uploadId]).sort()).toEqual([
      [`${prefix}one`, first],
      [`${prefix}two`, second],
    ]);
    for (const u of items) expect(u.initiated.getTime()).toBeGreaterThanOrEqual(before - 1_000);

    await storage.abortIncompleteUpload(`${prefix}one`, first);
    await storage.abortIncompleteUpload(`${prefix}one`, first);
    expect((await all(storage.listIncompleteUploadPages(prefix))).items.map((u) => u.key)).toEqual([`${prefix}two`]);
  });

  it('when swept, then old unreferenced objects go to trash/ and old unfinished uploads under the prefixes go; referenced, young and foreign ones stay', async () => {
    const owned = `${uniqueName('owned')}/`;
    const foreign = `${uniqueName('foreign')}/`;
    const oldOrphan = `${owned}old-orphan`;
    const oldReferenced = `${owned}old-referenced`;
    const oldForeign = `${foreign}old`;
    for (const key of [oldOrphan, oldReferenced, oldForeign]) await storage.putBuffer(key, Buffer.from(key));
    const oldUpload = await storage.client.initiateNewMultipartUpload(bucket, `${owned}old-upload`, {});
    // The sweep's clock stands one grace period after the second the old ones were stored in:
    // they are past the grace, what is stored from here on (the young ones, the trash) is not,
    // however long the sweep takes on a loaded machine.
    const cutoff = await nextStorageSecond();
    const graceMs = 60_000;
    const youngOrphan = `${owned}young-orphan`;
    await storage.putBuffer(youngOrphan, Buffer.from('young'));
    const youngUpload = await storage.client.initiateNewMultipartUpload(bucket, `${owned}young-upload`, {});
    const asked: string[][] = [];
    const removed: string[] = [];

    const report = await sweepOrphans({
      storage,
      prefixes: [owned],
      graceMs,
      now: () => cutoff + graceMs,
      pageSize: 2,
      referenced: async (keys) => {
        asked.push(keys);
        return new Set(keys.filter((k) => k === oldReferenced));
      },
      onRemoved: (prefix, kind) => removed.push(`${prefix}:${kind}`),
    });

    expect(await storage.exists(oldOrphan)).toBe(false);
    // Moved, not gone: restorable from trash/ with its bytes.
    const trashed: Buffer[] = [];
    for await (const chunk of await storage.getStream(`trash/${oldOrphan}`)) trashed.push(chunk as Buffer);
    expect(Buffer.concat(trashed).toString()).toBe(oldOrphan);
    expect(await storage.exists(oldReferenced)).toBe(true);
    expect(await storage.exists(youngOrphan)).toBe(true);
    expect(await storage.exists(oldForeign)).toBe(true);
    const uploads = (await all(storage.listIncompleteUploadPages(owned))).items.map((u) => u.uploadId);
    expect(uploads).toEqual([youngUpload]);
    expect(uploads).not.toContain(oldUpload);
    expect(report).toEqual({ objectsChecked: 3, objectsRemoved: 1, uploadsAborted: 1, trashEmptied: 0, refused: [] });
    expect(removed.sort()).toEqual([`${owned}:incomplete_upload`, `${owned}:object`]);
    // References are asked a page at a time, and only about old keys (once to count, once to move).
    expect([...new Set(asked.flat())].sort()).toEqual([oldOrphan, oldReferenced].sort());
    for (const keys of asked) expect(keys.length).toBeLessThanOrEqual(2);
  });

  it('when the installation guard answers no between the count and the move (a database dropped mid-sweep), then nothing moves and the prefix is refused', async () => {
    const owned = `${uniqueName('owned')}/`;
    const orphan = `${owned}old-orphan`;
    await storage.putBuffer(orphan, Buffer.from('x'));
    const cutoff = await nextStorageSecond();
    let confirmations = 0;
    const report = await sweepOrphans({
      storage,
      prefixes: [owned],
      graceMs: 60_000,
      now: () => cutoff + 60_000,
      // The records are gone: every key looks unreferenced, as after a dropped database.
      referenced: async () => new Set(),
      confirm: async () => {
        confirmations += 1;
        return false;
      },
    });
    expect(confirmations).toBe(1);
    expect(report.objectsRemoved).toBe(0);
    expect(report.refused).toEqual([{ prefix: owned, reason: 'installation', objects: 1, orphans: 1, allowed: 0 }]);
    expect(await storage.exists(orphan)).toBe(true);
    expect(await storage.exists(`trash/${orphan}`)).toBe(false);
  });

  it('when storage is unreachable, then listing fails with Unavailable', async () => {
    const down = new ObjectStorage({ ...infra.s3, endpoint: `http://127.0.0.1:${await closedPort()}`, bucket });

    await expect(all(down.listObjectPages('x/'))).rejects.toBeInstanceOf(Unavailable);
    await expect(all(down.listIncompleteUploadPages('x/'))).rejects.toBeInstanceOf(Unavailable);
    await expect(down.abortIncompleteUpload('x/y', 'z')).rejects.toBeInstanceOf(Unavailable);
  });
});
