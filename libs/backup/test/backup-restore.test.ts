import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BSON, Binary, Double, Int32, Long, MongoClient, ObjectId } from 'mongodb';
import { serviceDatabaseNames } from '@hangar/config';
import { ObjectStorage } from '@hangar/storage';
import { fixturesDir, testInfrastructure, uniqueName } from '@hangar/testing';
import { COMPLETION_FILE, MANIFEST_FILE, OBJECTS_FILE, type ObjectEntry, objectFile, restoreBackup, verifyBackup, writeBackup } from '../src';

const infra = testInfrastructure();
const { EJSON } = BSON;
const apk = path.join(fixturesDir(), 'apps', 'android.apk');

/** Backup, verification and restore against the real MongoDB-wire and S3 servers. */
describe('a backup of the databases and the bucket, and its restore', () => {
  const mongo = new MongoClient(infra.mongoUrl, { directConnection: true });
  const sourcePrefix = uniqueName('bksrc').replace(/-/g, '_');
  const source = new ObjectStorage({ ...infra.s3, bucket: uniqueName('backup-source') });
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-backups-'));
  const prefixes: string[] = [sourcePrefix];
  const buckets: ObjectStorage[] = [source];
  let folder: string;

  /** A new, empty target: its own database prefix and bucket. */
  const freshTarget = () => {
    const databasePrefix = uniqueName('bkdst').replace(/-/g, '_');
    const storage = new ObjectStorage({ ...infra.s3, bucket: uniqueName('backup-target') });
    prefixes.push(databasePrefix);
    buckets.push(storage);
    return { mongo, databasePrefix, storage };
  };

  /** A copy of the backup folder to damage, leaving the good one for the other tests. */
  const copyOfBackup = () => {
    const copy = fs.mkdtempSync(path.join(parent, 'copy-'));
    fs.cpSync(folder, copy, { recursive: true });
    return copy;
  };

  const documentsOf = async (db: string, collection: string) =>
    (await mongo.db(db).collection(collection).find({}, { promoteValues: false, promoteLongs: false, promoteBuffers: false }).sort({ _id: 1 }).toArray()).map((d) => EJSON.stringify(d, { relaxed: false }));

  const keysOf = async (storage: ObjectStorage) => {
    const keys: string[] = [];
    if (!(await storage.client.bucketExists(storage.bucket))) return keys;
    for await (const page of storage.listObjectPages('')) keys.push(...page.map((o) => o.key));
    return keys;
  };

  const bytesOf = async (storage: ObjectStorage, key: string) => {
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.getStream(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };

  beforeAll(async () => {
    await mongo.connect();
    const [users, , releases, debugFiles] = serviceDatabaseNames(sourcePrefix);
    await mongo.db(releases!).collection('releases').createIndex({ channelId: 1, versionKey: -1 }, { name: 'channel_version' });
    await mongo.db(releases!).collection('releases').insertMany([
      { _id: new Int32(1) as never, channelId: new Int32(5), size: new Long(3_000_000_000), ratio: new Double(2), at: new Date('2026-01-02T03:04:05.678Z'), storageKey: 'packages/1/android.apk', digest: new Binary(Buffer.from([0, 1, 2, 255])) },
      { _id: new Int32(2) as never, channelId: new Int32(5), note: 'ünïcode ✓', storageKey: 'packages/2/android.apk' },
    ]);
    await mongo.db(releases!).collection('counters').insertOne({ _id: 'releases' as never, seq: new Int32(2) });
    await mongo.db(releases!).collection('installation').insertOne({ _id: 'installation' as never, id: 'install-1', recordedAt: new Date() });
    await mongo.db(debugFiles!).collection('installation').insertOne({ _id: 'installation' as never, id: 'install-1', recordedAt: new Date() });
    await mongo.db(users!).collection('users').insertOne({ _id: new ObjectId(), email: 'a@example.test' });

    await source.ensureBucket();
    await source.putStream('packages/1/android.apk', fs.createReadStream(apk), { contentType: 'application/vnd.android.package-archive' });
    await source.putStream('packages/2/android.apk', fs.createReadStream(apk), { contentType: 'application/vnd.android.package-archive' });
    await source.putBuffer('icons/1.png', Buffer.from('not really a png'), 'image/png');
    await source.putBuffer('.hangar/installation.json', Buffer.from('{"id":"install-1"}\n'), 'application/json');
    await source.putBuffer('trash/packages/0/old.apk', Buffer.from('moved here by the janitor'));

    folder = (await writeBackup({ mongo, databasePrefix: sourcePrefix, storage: source }, parent)).folder;
  });

  afterAll(async () => {
    for (const prefix of prefixes) for (const name of serviceDatabaseNames(prefix)) await mongo.db(name).dropDatabase();
    await mongo.close();
    for (const storage of buckets) {
      for (const key of await keysOf(storage)) await storage.delete(key);
      if (await storage.client.bucketExists(storage.bucket)) await storage.client.removeBucket(storage.bucket);
    }
    fs.rmSync(parent, { recursive: true, force: true });
  });

  it('when a backup is restored into an empty target, then every document comes back with its exact types, every index, and every object byte for byte with its content type, trash/ left out', async () => {
    const target = freshTarget();

    const report = await restoreBackup(folder, target);

    expect(report.objects).toBe(4);
    for (const [i, name] of serviceDatabaseNames(sourcePrefix).entries()) {
      const restored = serviceDatabaseNames(target.databasePrefix)[i]!;
      const collections = (await mongo.db(name).listCollections().toArray()).map((c) => c.name).sort();
      expect((await mongo.db(restored).listCollections().toArray()).map((c) => c.name).sort()).toEqual(collections);
      for (const collection of collections) expect(await documentsOf(restored, collection)).toEqual(await documentsOf(name, collection));
    }
    const releasesDb = serviceDatabaseNames(target.databasePrefix)[2]!;
    const [first] = await mongo.db(releasesDb).collection('releases').find({ _id: 1 as never }, { promoteValues: false, promoteLongs: false }).toArray();
    expect(first!.size).toBeInstanceOf(Long);
    expect(first!.ratio).toBeInstanceOf(Double);
    expect((await mongo.db(releasesDb).collection('releases').listIndexes().toArray()).map((i) => i.name)).toContain('channel_version');

    expect((await keysOf(target.storage)).sort()).toEqual(['.hangar/installation.json', 'icons/1.png', 'packages/1/android.apk', 'packages/2/android.apk']);
    expect((await bytesOf(target.storage, 'packages/2/android.apk')).equals(fs.readFileSync(apk))).toBe(true);
    expect((await bytesOf(target.storage, '.hangar/installation.json')).toString()).toBe('{"id":"install-1"}\n');
    expect((await target.storage.client.statObject(target.storage.bucket, 'packages/1/android.apk')).metaData['content-type']).toBe('application/vnd.android.package-archive');
    // Two keys, one content: stored once in the backup.
    const entries = fs.readFileSync(path.join(folder, OBJECTS_FILE), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as ObjectEntry);
    expect(new Set(entries.filter((e) => e.key.startsWith('packages/')).map((e) => e.sha256)).size).toBe(1);
  });

  it('when the backup has no completion marker (it stopped halfway), then verify and restore refuse it, and the target stays empty', async () => {
    const interrupted = copyOfBackup();
    fs.rmSync(path.join(interrupted, COMPLETION_FILE));
    const target = freshTarget();

    await expect(verifyBackup(interrupted)).rejects.toThrow(/has no complete\.json: this backup did not finish .* never restored/);
    await expect(restoreBackup(interrupted, target)).rejects.toThrow(/did not finish/);

    expect(await keysOf(target.storage)).toEqual([]);
    for (const name of serviceDatabaseNames(target.databasePrefix)) expect(await mongo.db(name).listCollections().toArray()).toEqual([]);
  });

  it('when an object file of the backup was altered, then the restore refuses, naming the object, and writes nothing', async () => {
    const damaged = copyOfBackup();
    const entry = fs.readFileSync(path.join(damaged, OBJECTS_FILE), 'utf8').split('\n').map((l) => l && (JSON.parse(l) as ObjectEntry)).find((e) => e && e.key === 'icons/1.png') as ObjectEntry;
    fs.writeFileSync(path.join(damaged, objectFile(entry.sha256)), 'not really a pnG');
    const target = freshTarget();

    await expect(restoreBackup(damaged, target)).rejects.toThrow(/does not match its manifest \(1 problem\); nothing was restored:\n.*\(object icons\/1\.png\)/);
    expect(await keysOf(target.storage)).toEqual([]);
  });

  it('when the manifest or a database file was altered, then the restore refuses', async () => {
    const manifestAltered = copyOfBackup();
    fs.appendFileSync(path.join(manifestAltered, MANIFEST_FILE), ' ');
    await expect(restoreBackup(manifestAltered, freshTarget())).rejects.toThrow(/manifest\.json does not match its completion marker/);

    const dumpAltered = copyOfBackup();
    const releasesFile = fs.readdirSync(path.join(dumpAltered, 'databases', `${sourcePrefix}_releases`)).find((f) => f.startsWith('releases'))!;
    fs.appendFileSync(path.join(dumpAltered, 'databases', `${sourcePrefix}_releases`, releasesFile), '{"_id":{"$numberInt":"3"}}\n');
    await expect(restoreBackup(dumpAltered, freshTarget())).rejects.toThrow(/databases\/.*_releases\/releases\.ejsonl holds/);
  });

  it('when the target database or bucket holds anything, then the restore refuses, naming it, and changes nothing', async () => {
    const withDocument = freshTarget();
    await mongo.db(`${withDocument.databasePrefix}_apps`).collection('apps').insertOne({ name: 'kept' });
    await expect(restoreBackup(folder, withDocument)).rejects.toThrow(new RegExp(`not empty.*database "${withDocument.databasePrefix}_apps" holds 1 collection \\(apps\\)`));
    expect(await keysOf(withDocument.storage)).toEqual([]);
    expect(await mongo.db(`${withDocument.databasePrefix}_releases`).listCollections().toArray()).toEqual([]);

    const withObject = freshTarget();
    await withObject.storage.ensureBucket();
    await withObject.storage.putBuffer('packages/9/other.apk', Buffer.from('someone else'));
    await expect(restoreBackup(folder, withObject)).rejects.toThrow(/not empty.*bucket "backup-target-[^"]+" holds objects \(packages\/9\/other\.apk/);
    expect(await keysOf(withObject.storage)).toEqual(['packages/9/other.apk']);
    for (const name of serviceDatabaseNames(withObject.databasePrefix)) expect(await mongo.db(name).listCollections().toArray()).toEqual([]);
  });
});
