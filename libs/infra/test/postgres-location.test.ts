import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { freePort } from '../src/net';
import { resolveInfrastructure } from '../src/infrastructure';

/**
 * As root, PostgreSQL runs as the postgres user, who cannot reach a data dir
 * inside a folder of mode 0700 (a checkout under /root, say). The launcher
 * then keeps PostgreSQL's files under /var/lib/hangar/postgres (never /var/tmp,
 * which systemd-tmpfiles cleans), linked from the data dir, rather
 * than fail; as any other user it runs as that user and keeps them in the
 * data dir itself.
 */
describe('where the embedded PostgreSQL keeps its files', () => {
  it('when the data dir is inside a folder only its owner may enter, then FerretDB on PostgreSQL still starts and keeps its data across starts', async () => {
    const locked = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-locked-'));
    fs.chmodSync(locked, 0o700);
    const dataDir = path.join(locked, 'data');
    const env = { ...process.env, MONGO_URL: '', POSTGRES_URL: '', HANGAR_MONGO_PORT: String(await freePort()) };
    const asRoot = process.getuid?.() === 0;
    let linkTarget: string | undefined;
    try {
      for (const round of [1, 2]) {
        const infra = await resolveInfrastructure({ dataDir, env });
        try {
          const client = new MongoClient(infra.mongoUrl, { directConnection: true });
          await client.connect();
          const things = client.db('location_test').collection<{ _id: number }>('things');
          if (round === 1) await things.insertOne({ _id: 1 });
          expect(await things.countDocuments({ _id: 1 })).toBe(1);
          await client.close();
        } finally {
          await infra.stop();
        }
      }
      const link = fs.lstatSync(path.join(dataDir, 'postgres'));
      if (asRoot) {
        expect(link.isSymbolicLink()).toBe(true);
        linkTarget = fs.readlinkSync(path.join(dataDir, 'postgres'));
        expect(linkTarget.startsWith('/var/lib/hangar/postgres/')).toBe(true);
        expect(fs.existsSync(path.join(linkTarget, 'data', 'PG_VERSION'))).toBe(true);
      } else {
        expect(link.isDirectory()).toBe(true);
        expect(fs.existsSync(path.join(dataDir, 'postgres', 'data', 'PG_VERSION'))).toBe(true);
      }
    } finally {
      fs.rmSync(locked, { recursive: true, force: true });
      if (linkTarget) fs.rmSync(linkTarget, { recursive: true, force: true });
    }
  }, 180_000);

  const asRoot = process.getuid?.() === 0;
  (asRoot ? it : it.skip)('when a cluster is still in /var/tmp/hangar-postgres (an older Hangar), then the next start moves it to /var/lib/hangar/postgres, verified, keeps the old copy, and the data is all there', async () => {
    const locked = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-locked-'));
    fs.chmodSync(locked, 0o700);
    const dataDir = path.join(locked, 'data');
    const link = path.join(dataDir, 'postgres');
    const env = { ...process.env, MONGO_URL: '', POSTGRES_URL: '', HANGAR_MONGO_PORT: String(await freePort()) };
    const lines: string[] = [];
    const start = async (round: number) => {
      const infra = await resolveInfrastructure({ dataDir, env, log: (l) => lines.push(l) });
      try {
        const client = new MongoClient(infra.mongoUrl, { directConnection: true });
        await client.connect();
        const things = client.db('move_test').collection<{ _id: number }>('things');
        if (round === 1) await things.insertMany([{ _id: 1 }, { _id: 2 }]);
        const count = await things.countDocuments({});
        await client.close();
        return count;
      } finally {
        await infra.stop();
      }
    };
    let durable: string | undefined;
    let old: string | undefined;
    try {
      expect(await start(1)).toBe(2);
      durable = fs.readlinkSync(link);
      // Where an older Hangar kept it: the same folder name under /var/tmp, the link there.
      old = path.join('/var/tmp/hangar-postgres', path.basename(durable));
      fs.mkdirSync(path.dirname(old), { recursive: true });
      fs.rmSync(old, { recursive: true, force: true });
      expect(spawnSync('mv', [durable, old]).status).toBe(0);
      fs.rmSync(link);
      fs.symlinkSync(old, link);

      expect(await start(2)).toBe(2);

      expect(fs.readlinkSync(link)).toBe(durable);
      expect(JSON.parse(fs.readFileSync(path.join(durable, 'MOVED-FROM.json'), 'utf8'))).toMatchObject({ from: old });
      expect(fs.existsSync(path.join(old, 'data', 'PG_VERSION'))).toBe(true);
      expect(lines.join('\n')).toMatch(/Moved and verified .* is kept until you remove it/);
    } finally {
      fs.rmSync(locked, { recursive: true, force: true });
      for (const dir of [durable, old]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
