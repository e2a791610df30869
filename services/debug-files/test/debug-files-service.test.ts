import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { AckPolicy, DeliverPolicy } from '@nats-io/jetstream';
import { AlreadyExists, FailedPrecondition, InvalidArgument, NotFound, PayloadTooLarge, PermissionDenied } from '@hangar/errors';
import { connectEventBus, parseEnvelope, streamNameFor, subjectOf } from '@hangar/events';
import { createServiceClient } from '@hangar/grpc';
import { createLogger } from '@hangar/logger';
import { type RunningParseWorker, startParseWorker } from '@hangar/parse-jobs';
import { apps, debugFiles, users } from '@hangar/proto';
import { ObjectStorage } from '@hangar/storage';
import { eventually as holdsWithin, fixturesDir, testInfrastructure, uniqueName } from '@hangar/testing';
// The real apps and users services, in-process: channels, collaborators and
// CheckPermission are theirs, and app.deleted comes from them.
import { RunningAppsService, startAppsService } from '../../apps/src/apps-service';
import { loadAppsConfig } from '../../apps/src/config';
import { loadUsersConfig } from '../../users/src/config';
import { bootstrapAdmin } from '../../users/src/domain/bootstrap-admin';
import { RunningUsersService, startUsersService } from '../../users/src/users-service';
import { loadDebugFilesConfig } from '../src/config';
import { RunningDebugFilesService, startDebugFilesService } from '../src/debug-files-service';

type Actor = { userId: number; role: string };

/**
 * The debug-files service as deployed — its real gRPC server and client,
 * FerretDB, NATS, S3, real apps and users services and the parsing pool that
 * reads its archives (the releases service hosts it when deployed) — without the gateway.
 */
/** The retrace bound this file's service runs with (DEBUG_FILE_RETRACE_MAX_MAPPING_BYTES). */
const RETRACE_LIMIT = 48 * 1024 * 1024;

describe('debug-files service over gRPC', () => {
  const infra = testInfrastructure();
  const prefix = uniqueName('dbgf-ct');
  const db = prefix.replace(/-/g, '_');
  const bucket = uniqueName('dbgf-ct');
  /** The service's warn lines, for what only a log says (a cancelled retrace). */
  const logLines: string[] = [];
  const logger = createLogger({
    service: 'debug-files-test',
    level: 'warn',
    destination: new Writable({ write: (c, _e, d) => (logLines.push(String(c)), process.env.DEBUG_LOGS && process.stderr.write(c), d()) }),
  });
  const storage = new ObjectStorage({ ...infra.s3, bucket });
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-dbgf-ct-'));
  let usersService: RunningUsersService;
  let appsService: RunningAppsService;
  let service: RunningDebugFilesService;
  let parsePool: { bus: Awaited<ReturnType<typeof connectEventBus>>; worker: RunningParseWorker };
  let usersClient: ReturnType<typeof createServiceClient<typeof users.UsersServiceDefinition>>;
  let appsClient: ReturnType<typeof createServiceClient<typeof apps.AppsServiceDefinition>>;
  let client: ReturnType<typeof createServiceClient<typeof debugFiles.DebugFilesServiceDefinition>>;
  const admin: Actor = { userId: 0, role: 'admin' };

  beforeAll(async () => {
    const common = { MONGO_URL: infra.mongoUrl, NATS_URL: infra.natsUrl, NATS_SUBJECT_PREFIX: prefix, GRPC_LISTEN: '127.0.0.1:0', SHUTDOWN_TIMEOUT_MS: '3000' };
    usersService = await startUsersService(loadUsersConfig({ ...common, MONGO_DB: `${db}_users` }), logger);
    usersClient = createServiceClient(users.UsersServiceDefinition, `127.0.0.1:${usersService.port}`);
    const boot = await bootstrapAdmin(usersService.deps, { email: 'root@example.com', password: 'bootstrap-pass', token: 'bootstrap-token-0123456789' }, logger);
    if (!boot.created) throw new Error('expected a bootstrap admin');
    admin.userId = boot.userId;
    appsService = await startAppsService(loadAppsConfig({ ...common, MONGO_DB: `${db}_apps`, USERS_GRPC_TARGET: `127.0.0.1:${usersService.port}` }), logger);
    appsClient = createServiceClient(apps.AppsServiceDefinition, `127.0.0.1:${appsService.port}`);
    service = await startDebugFilesService(
      loadDebugFilesConfig({
        ...common,
        MONGO_DB: `${db}_debug_files`,
        APPS_GRPC_TARGET: `127.0.0.1:${appsService.port}`,
        S3_ENDPOINT: infra.s3.endpoint,
        S3_ACCESS_KEY: infra.s3.accessKey,
        S3_SECRET_KEY: infra.s3.secretKey,
        S3_BUCKET: bucket,
        DEBUG_FILE_RETRACE_MAX_MAPPING_BYTES: String(RETRACE_LIMIT),
      }),
      logger,
    );
    client = createServiceClient(debugFiles.DebugFilesServiceDefinition, `127.0.0.1:${service.port}`);
    const bus = await connectEventBus(infra.natsUrl, 'dbgf-ct-parse-pool', logger);
    parsePool = { bus, worker: startParseWorker({ nc: bus.nc, storage, logger, prefix, concurrency: 2 }) };
  });

  afterAll(async () => {
    for (const running of [service, appsService, usersService]) await running?.connection.dropDatabase().catch(() => undefined);
    await service?.stop();
    await parsePool?.worker.stop();
    await parsePool?.bus.nc.drain();
    await appsService?.stop();
    await usersService?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  let n = 0;
  async function newUser(role: 'admin' | 'developer' | 'member' = 'developer'): Promise<Actor> {
    n += 1;
    const user = await usersClient.createUser({ actor: admin, username: `dbgf-user-${n}`, email: `dbgf-user-${n}@example.com`, password: 'password-123', role });
    return { userId: user.id, role: user.role };
  }

  async function channelOf(owner: Actor, deviceType: 'iOS' | 'Android' | 'Linux') {
    const app = await appsClient.createApp({ actor: owner, name: uniqueName('app') });
    const scheme = await appsClient.createScheme({ actor: owner, appId: app.id, name: 'Beta' });
    const channel = await appsClient.createChannel({ actor: owner, schemeId: scheme.id, name: deviceType, deviceType });
    return { app, scheme, channel, key: channel.slug };
  }

  const fixture = (...parts: string[]) => fs.readFileSync(path.join(fixturesDir(), ...parts));

  /** A real zip made with Info-ZIP's zip from `files` (archive path → content). */
  function zipOf(files: Record<string, string | Buffer>): Buffer {
    const stage = fs.mkdtempSync(path.join(workDir, 'stage-'));
    for (const [name, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(stage, name)), { recursive: true });
      fs.writeFileSync(path.join(stage, name), content);
    }
    const out = path.join(stage, 'out.zip');
    execFileSync('zip', ['-q', '-X', '-r', out, ...Object.keys(files)], { cwd: stage });
    return fs.readFileSync(out);
  }

  /** A small mapping archive of its own content. */
  const mappingZip = (tag: string) => zipOf({ 'mapping.txt': `com.example.${tag}.Main -> a.a:\n    void run() -> a\n` });

  /** Stores `data` as the gateway would, then asks the service to record it. */
  async function upload(actor: Actor, channelKey: string, data: Buffer, form: { releaseVersion?: string; buildVersion?: string } = {}) {
    const objectKey = `debug-files/${randomUUID()}`;
    await storage.putBuffer(objectKey, data);
    const file = await client.createDebugFile({
      actor,
      channelKey,
      objectKey,
      size: data.length,
      fileName: 'upload.zip',
      releaseVersion: form.releaseVersion ?? '',
      buildVersion: form.buildVersion ?? '',
      sha256: '',
    });
    return { file, objectKey };
  }

  const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);

  const eventually = (check: () => Promise<boolean>, timeoutMs = 15_000) => holdsWithin(check, { timeoutMs, stepMs: 200 });

  /** A consumer on the stream that collects every debug_files event published from now on. */
  async function eventProbe() {
    const bus = await connectEventBus(infra.natsUrl, 'debug-files-test', logger);
    const durable = uniqueName('probe').replace(/[^a-z0-9-]/g, '');
    const filter = subjectOf('debug_file.created', prefix).replace(/\.debug_file\.created\.v1$/, '.>');
    await bus.jsm.consumers.add(streamNameFor(prefix), { durable_name: durable, filter_subject: filter, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.New });
    const consumer = await bus.js.consumers.get(streamNameFor(prefix), durable);
    const seen: { type: string; data: Record<string, unknown> }[] = [];
    return {
      seen,
      async waitFor(done: () => boolean) {
        const deadline = Date.now() + 10_000;
        while (!done() && Date.now() < deadline) {
          const msg = await consumer.next({ expires: 1_000 });
          if (msg) {
            const envelope = parseEnvelope(msg.string());
            seen.push({ type: envelope.type, data: envelope.data as Record<string, unknown> });
            msg.ack();
          }
        }
      },
      close: () => bus.nc.drain(),
    };
  }

  describe('uploads', () => {
    it('when an ELF .debug file made by gcc is uploaded to a Linux channel, then debug_file.created carries its build-id as a gnu_build_id', async () => {
      fs.writeFileSync(path.join(workDir, 'app.c'), 'int main(void) { return 0; }\n');
      execFileSync('gcc', ['-g', '-Wl,--build-id', '-o', path.join(workDir, 'app'), path.join(workDir, 'app.c')]);
      execFileSync('objcopy', ['--only-keep-debug', path.join(workDir, 'app'), path.join(workDir, 'app.debug')]);
      const buildId = /Build ID: ([0-9a-f]+)/.exec(execFileSync('readelf', ['-n', path.join(workDir, 'app')], { encoding: 'utf8' }))![1]!;
      const probe = await eventProbe();
      try {
        const dev = await newUser();
        const { key } = await channelOf(dev, 'Linux');
        const { file } = await upload(dev, key, fs.readFileSync(path.join(workDir, 'app.debug')), { releaseVersion: '2.0', buildVersion: '7' });
        expect(file).toMatchObject({ deviceType: 'linux', releaseVersion: '2.0', buildVersion: '7' });
        const ours = () => probe.seen.filter((e) => e.data.debug_file_id === file.id);
        await probe.waitFor(() => ours().length > 0);
        expect(ours()[0]!.data).toMatchObject({ kind: 'elf', uuids: [buildId], debug_ids: [{ type: 'gnu_build_id', id: buildId }] });
      } finally {
        await probe.close();
      }
    });

    it('when the two dSYM fixtures are uploaded, then each slice is a row with the UUID and architecture of the fixtures README', async () => {
      const dev = await newUser();
      const { key } = await channelOf(dev, 'iOS');
      const single = await upload(dev, key, fixture('dsyms', 'single_ios.dSYM.zip'), { releaseVersion: '9.9', buildVersion: '99' });
      const multi = await upload(dev, key, fixture('dsyms', 'multi_ios.dSYM.zip'));

      expect(single.file).toMatchObject({ deviceType: 'ios', bundleId: 'com.icyleaf.iOS', releaseVersion: '1.0', buildVersion: '1', size: fixture('dsyms', 'single_ios.dSYM.zip').length });
      expect(single.file.metadata.map((m) => [m.uuid, m.type, m.object])).toEqual([['ea9bbf2d-bfdd-3ce0-85b2-1cbe7152fca5', 'arm64', 'iOS']]);
      expect(multi.file).toMatchObject({ releaseVersion: '1.0', buildVersion: '2' });
      expect(multi.file.metadata.map((m) => [m.uuid, m.type])).toEqual([
        ['26dfc15d-bdce-351f-b5de-6ee9f5dd6d85', 'armv7'],
        ['17f58291-dd25-3fc8-9417-ccbe8163d33e', 'arm64'],
      ]);
      const ids = [...single.file.metadata, ...multi.file.metadata].map((m) => m.id);
      expect(new Set(ids).size).toBe(3);
      for (const m of multi.file.metadata) expect(m.debugFileId).toBe(multi.file.id);
      expect(JSON.parse(multi.file.metadata[0]!.dataJson)).toMatchObject({ dsym: 'iOS.app.dSYM', bundle_id: 'com.icyleaf.iOS' });
      expect(single.file.checksum).toMatch(/^[0-9a-f]{64}$/);
    });

    it('when the full mapping fixture is uploaded with versions, then its files and package are the metadata; without versions, 422', async () => {
      const dev = await newUser();
      const { key } = await channelOf(dev, 'Android');
      const missing = await failure(upload(dev, key, fixture('proguards', 'full_mapping.zip'), { releaseVersion: '1.0' }));
      expect(missing).toBeInstanceOf(InvalidArgument);
      expect((missing as InvalidArgument).entry).toEqual({ build_version: ["can't be blank for an Android mapping"] });

      const { file } = await upload(dev, key, fixture('proguards', 'full_mapping.zip'), { releaseVersion: '1.0', buildVersion: '1' });
      expect(file).toMatchObject({ deviceType: 'android', bundleId: 'com.icyleaf.appinfo', releaseVersion: '1.0', buildVersion: '1' });
      expect(file.metadata.map((m) => [m.type, m.object])).toEqual([
        ['manifest', 'AndroidManifest.xml'],
        ['r_txt', 'R.txt'],
        ['mapping', 'mapping.txt'],
      ]);
      expect(JSON.parse(file.metadata[0]!.dataJson)).toMatchObject({ package: 'com.icyleaf.appinfo', version_name: '1.0', version_code: '1' });
    });

    it('when the archive is not a zip, holds no symbols, or does not fit the channel, then 422 says what was expected', async () => {
      const dev = await newUser();
      const ios = await channelOf(dev, 'iOS');
      const android = await channelOf(dev, 'Android');
      const notZip = await failure(upload(dev, ios.key, Buffer.from('plain text, not a zip')));
      expect(notZip).toBeInstanceOf(InvalidArgument);
      expect((notZip as Error).message).toMatch(/^expected a zip of \.dSYM bundles or a ProGuard mapping\.txt/);
      const noSymbols = await failure(upload(dev, ios.key, zipOf({ 'README.md': 'hello' })));
      expect(noSymbols).toBeInstanceOf(InvalidArgument);
      expect((noSymbols as Error).message).toMatch(/^expected a zip of \.dSYM bundles or a ProGuard mapping\.txt/);
      const wrongPlatform = await failure(upload(dev, android.key, fixture('dsyms', 'single_ios.dSYM.zip'), { releaseVersion: '1', buildVersion: '1' }));
      expect(wrongPlatform).toBeInstanceOf(FailedPrecondition);
      expect((await client.listDebugFiles({ actor: dev, channelKey: ios.key, uuid: '' })).total).toBe(0);
    });

    it('when the same archive is uploaded five times at once to one app, then one record exists and the others name it', async () => {
      const dev = await newUser();
      const { scheme, key } = await channelOf(dev, 'iOS');
      const other = await appsClient.createChannel({ actor: dev, schemeId: scheme.id, name: 'Second', deviceType: 'iOS' });
      const data = fixture('dsyms', 'multi_ios.dSYM.zip');
      const results = await Promise.allSettled([
        ...Array.from({ length: 4 }, () => upload(dev, key, data)),
        // Another channel of the same app: still the same app's content.
        upload(dev, other.slug, data),
      ]);
      const created = results.filter((r) => r.status === 'fulfilled');
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(created).toHaveLength(1);
      const id = (created[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof upload>>>).value.file.id;
      for (const r of refused) {
        expect(r.reason).toBeInstanceOf(AlreadyExists);
        expect((r.reason as Error).message).toContain(`debug file ${id}`);
      }
      // Another app may hold the same content.
      const elsewhere = await channelOf(dev, 'iOS');
      await expect(upload(dev, elsewhere.key, data)).resolves.toBeDefined();
    });
  });

  describe('archives that cost too much', () => {
    it('when a mapping zip inflates more than 200 times (a bomb), then it is 413 at once and nothing is recorded', async () => {
      const dev = await newUser();
      const { key } = await channelOf(dev, 'Android');
      // 256 MiB of zeros, zipped by the real zip to about 250 KiB.
      const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-bomb-'));
      try {
        const zeros = fs.openSync(path.join(stage, 'mapping.txt'), 'w');
        fs.ftruncateSync(zeros, 256 * 1024 ** 2);
        fs.closeSync(zeros);
        execFileSync('zip', ['-q', '-9', 'bomb.zip', 'mapping.txt'], { cwd: stage });
        const bomb = fs.readFileSync(path.join(stage, 'bomb.zip'));
        const err = await failure(upload(dev, key, bomb, { releaseVersion: '1.0', buildVersion: '1' }));
        expect(err).toBeInstanceOf(PayloadTooLarge);
        expect((err as Error).message).toMatch(/more than 200 times/);
      } finally {
        fs.rmSync(stage, { recursive: true, force: true });
      }
      expect((await client.listDebugFiles({ actor: dev, channelKey: key, uuid: '' })).total).toBe(0);
    });

    it("when the gateway's SHA-256 names content the app holds, then it is a duplicate without the archive being read", async () => {
      const dev = await newUser();
      const { key } = await channelOf(dev, 'Android');
      const data = mappingZip('hashed');
      const { file } = await upload(dev, key, data, { releaseVersion: '1.0', buildVersion: '1' });
      // The second upload's object does not exist: reading it would fail, so a 409 naming the
      // first file shows it was recognised from the hash alone, before any fetch or parse.
      const sha256 = createHash('sha256').update(data).digest('hex');
      const again = { actor: dev, channelKey: key, objectKey: `debug-files/${randomUUID()}`, size: data.length, fileName: 'upload.zip', releaseVersion: '1.0', buildVersion: '1' };
      const err = await failure(client.createDebugFile({ ...again, sha256 }));
      expect(err).toBeInstanceOf(AlreadyExists);
      expect((err as Error).message).toContain(`debug file ${file.id}`);
      // Without the hash the service must read the object, which is not there.
      expect(await failure(client.createDebugFile({ ...again, sha256: '' }))).not.toBeInstanceOf(AlreadyExists);
    });
  });

  describe('retraces that cost too much', () => {
    /** A mapping zip of about `mib` MiB of text: many classes with a member each. */
    function bigMapping(mib: number): Buffer {
      const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-big-mapping-'));
      try {
        const out = fs.openSync(path.join(stage, 'mapping.txt'), 'w');
        const chunk: string[] = [];
        let written = 0;
        for (let i = 0; written < mib * 1024 * 1024; i++) {
          chunk.push(`com.example.pkg${i % 997}.Class${i} -> a${i.toString(36)}:\n    1:1:void run${i}():10:10 -> a\n`);
          if (chunk.length === 10_000) {
            const text = chunk.join('');
            fs.writeSync(out, text);
            written += text.length;
            chunk.length = 0;
          }
        }
        fs.closeSync(out);
        execFileSync('zip', ['-q', '-1', 'mapping.zip', 'mapping.txt'], { cwd: stage });
        return fs.readFileSync(path.join(stage, 'mapping.zip'));
      } finally {
        fs.rmSync(stage, { recursive: true, force: true });
      }
    }
    const trace = 'java.lang.IllegalStateException: boom\n\tat zzzz.a(Unknown Source:1)\n';

    it("when the caller's deadline passes mid-retrace, then the mapping stops streaming and the cancelled retrace is logged", async () => {
      const dev = await newUser();
      const { key } = await channelOf(dev, 'Android');
      await upload(dev, key, bigMapping(40), { releaseVersion: '1.0', buildVersion: '7' });
      const before = logLines.filter((l) => l.includes('retrace cancelled')).length;
      const err = await failure(client.retrace({ channelKey: key, releaseVersion: '1.0', buildVersion: '7', stackTrace: trace }, { deadline: 300 }));
      expect(err).toBeDefined();
      // The service's own work ends too: its cancelled retrace says so once it looks at the call's signal.
      await eventually(async () => logLines.filter((l) => l.includes('retrace cancelled')).length > before, 60_000);
    });

    it('when the mapping is larger than DEBUG_FILE_RETRACE_MAX_MAPPING_BYTES, then the retrace is 413 before it reads', async () => {
      const dev = await newUser();
      const { key } = await channelOf(dev, 'Android');
      await upload(dev, key, bigMapping(56), { releaseVersion: '1.0', buildVersion: '8' });
      const err = await failure(client.retrace({ channelKey: key, releaseVersion: '1.0', buildVersion: '8', stackTrace: trace }));
      expect(err).toBeInstanceOf(PayloadTooLarge);
      expect((err as Error).message).toMatch(/more than the 50331648 a retrace reads/);
    });
  });

  describe('reads', () => {
    it('when a UUID is asked for, in any case or without dashes, then the file carrying it is found; an unknown one finds none', async () => {
      const dev = await newUser();
      const { key } = await channelOf(dev, 'iOS');
      await upload(dev, key, fixture('dsyms', 'single_ios.dSYM.zip'));
      const { file } = await upload(dev, key, fixture('dsyms', 'multi_ios.dSYM.zip'));
      for (const uuid of ['17f58291-dd25-3fc8-9417-ccbe8163d33e', '26DFC15DBDCE351FB5DE6EE9F5DD6D85']) {
        const found = await client.listDebugFiles({ actor: dev, channelKey: key, uuid });
        expect(found.debugFiles.map((f) => f.id)).toEqual([file.id]);
        expect(found.total).toBe(1);
      }
      expect((await client.listDebugFiles({ actor: dev, channelKey: key, uuid: randomUUID() })).total).toBe(0);
      await expect(client.listDebugFiles({ actor: dev, channelKey: key, uuid: 'nope' })).rejects.toBeInstanceOf(InvalidArgument);
    });

    it('when a channel is listed, then newest uploads come first, paginated', async () => {
      const dev = await newUser();
      const { key } = await channelOf(dev, 'Android');
      const ids: number[] = [];
      for (const tag of ['a', 'b', 'c']) ids.push((await upload(dev, key, mappingZip(tag), { releaseVersion: '1.0', buildVersion: tag })).file.id);
      const first = await client.listDebugFiles({ actor: dev, channelKey: key, page: { page: 1, perPage: 2 }, uuid: '' });
      expect(first.debugFiles.map((f) => f.id)).toEqual([ids[2], ids[1]]);
      expect(first.total).toBe(3);
      const second = await client.listDebugFiles({ actor: dev, channelKey: key, page: { page: 2, perPage: 2 }, uuid: '' });
      expect(second.debugFiles.map((f) => f.id)).toEqual([ids[0]]);
    });

    it("when a file is read through another channel's key, then it is not found", async () => {
      const dev = await newUser();
      const one = await channelOf(dev, 'iOS');
      const two = await channelOf(dev, 'iOS');
      const { file } = await upload(dev, one.key, fixture('dsyms', 'single_ios.dSYM.zip'));
      expect((await client.getDebugFile({ actor: dev, channelKey: one.key, id: file.id })).id).toBe(file.id);
      await expect(client.getDebugFile({ actor: dev, channelKey: two.key, id: file.id })).rejects.toBeInstanceOf(NotFound);
      await expect(client.getDebugFile({ actor: dev, channelKey: one.key, id: 999_999_999 })).rejects.toBeInstanceOf(NotFound);
      await expect(client.getDebugFile({ actor: dev, channelKey: 'no-such-channel-key', id: file.id })).rejects.toBeInstanceOf(NotFound);
    });
  });

  describe('permissions', () => {
    it('when a member collaborator reads, it works; when they write, or an outsider reads, then PermissionDenied', async () => {
      const dev = await newUser();
      const member = await newUser('member');
      const outsider = await newUser('developer');
      const { app, key } = await channelOf(dev, 'iOS');
      await appsClient.addCollaborator({ actor: dev, appId: app.id, userId: member.userId, role: 'member' });
      const { file } = await upload(dev, key, fixture('dsyms', 'single_ios.dSYM.zip'));

      expect((await client.getDebugFile({ actor: member, channelKey: key, id: file.id })).id).toBe(file.id);
      expect((await client.listDebugFiles({ actor: member, channelKey: key, uuid: '' })).total).toBe(1);
      await expect(upload(member, key, fixture('dsyms', 'multi_ios.dSYM.zip'))).rejects.toBeInstanceOf(PermissionDenied);
      await expect(client.deleteDebugFile({ actor: member, channelKey: key, id: file.id })).rejects.toBeInstanceOf(PermissionDenied);
      await expect(client.listDebugFiles({ actor: outsider, channelKey: key, uuid: '' })).rejects.toBeInstanceOf(PermissionDenied);
      expect((await client.getDebugFile({ actor: dev, channelKey: key, id: file.id })).id).toBe(file.id);
    });
  });

  describe('downloads', () => {
    const find = (channelKey: string, q: { releaseVersion?: string; buildVersion?: string; order?: string } = {}) =>
      client.findDownload({ channelKey, releaseVersion: q.releaseVersion ?? '', buildVersion: q.buildVersion ?? '', order: q.order ?? '', id: 0, expiresInSeconds: 60 });

    it('when Android builds 9, 10 and 2 of 1.0 were uploaded in that order, then version picks 10, upload_date picks 2, a build picks itself', async () => {
      const dev = await newUser();
      const { key } = await channelOf(dev, 'Android');
      const byBuild: Record<string, number> = {};
      for (const build of ['9', '10', '2']) byBuild[build] = (await upload(dev, key, mappingZip(`v1-${build}`), { releaseVersion: '1.0', buildVersion: build })).file.id;
      const newer = (await upload(dev, key, mappingZip('v2'), { releaseVersion: '2.0', buildVersion: '1' })).file.id;

      expect((await find(key, { releaseVersion: '1.0' })).id).toBe(byBuild['10']);
      expect((await find(key, { releaseVersion: '1.0', order: 'version' })).id).toBe(byBuild['10']);
      expect((await find(key, { releaseVersion: '1.0', order: 'upload_date' })).id).toBe(byBuild['2']);
      expect((await find(key, { releaseVersion: '1.0', buildVersion: '9' })).id).toBe(byBuild['9']);
      expect((await find(key, { releaseVersion: '2.0' })).id).toBe(newer);
      await expect(find(key, { releaseVersion: '1.0', buildVersion: '11' })).rejects.toBeInstanceOf(NotFound);
      await expect(find(key, { releaseVersion: '3.0' })).rejects.toBeInstanceOf(NotFound);
      await expect(find(key, { buildVersion: '9' })).rejects.toBeInstanceOf(InvalidArgument);
      await expect(find(key, { releaseVersion: '1.0', order: 'newest' })).rejects.toBeInstanceOf(InvalidArgument);
    });

    it('when iOS files are asked for with a release version, then it is ignored; the URL serves the exact bytes', async () => {
      const dev = await newUser();
      const { key } = await channelOf(dev, 'iOS');
      const multi = await upload(dev, key, fixture('dsyms', 'multi_ios.dSYM.zip'));
      const single = await upload(dev, key, fixture('dsyms', 'single_ios.dSYM.zip'));

      expect((await find(key, { releaseVersion: '7.7' })).id).toBe(multi.file.id); // 1.0 (2) > 1.0 (1)
      expect((await find(key, { order: 'upload_date' })).id).toBe(single.file.id);
      expect((await find(key, { releaseVersion: '7.7', buildVersion: '1' })).id).toBe(single.file.id);
      const download = await find(key, { buildVersion: '2' });
      expect(download).toMatchObject({ id: multi.file.id, objectKey: multi.objectKey, size: multi.file.size });
      const res = await fetch(download.url);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(fixture('dsyms', 'multi_ios.dSYM.zip'))).toBe(true);
      expect((await client.findDownload({ channelKey: key, releaseVersion: '', buildVersion: '', order: '', id: single.file.id, expiresInSeconds: 60 })).objectKey).toBe(single.objectKey);
    });
  });

  describe('changes', () => {
    it('when a file is replaced, then it is parsed again, the old archive leaves storage, and content held by another file is refused', async () => {
      const dev = await newUser();
      const { key } = await channelOf(dev, 'iOS');
      const original = await upload(dev, key, fixture('dsyms', 'single_ios.dSYM.zip'));
      const other = await upload(dev, key, fixture('dsyms', 'multi_ios.dSYM.zip'));

      const objectKey = `debug-files/${randomUUID()}`;
      const data = zipOf({ 'App.app.dSYM/Contents/Resources/DWARF/App': fixture('dsyms', 'single_ios.dSYM.zip').subarray(0, 0) });
      await storage.putBuffer(objectKey, data);
      const broken = await failure(client.updateDebugFile({ actor: dev, channelKey: key, id: original.file.id, objectKey, size: data.length, fileName: 'x.zip', releaseVersion: '', buildVersion: '' }));
      expect(broken).toBeInstanceOf(InvalidArgument);

      const sameAsOther = `debug-files/${randomUUID()}`;
      const multi = fixture('dsyms', 'multi_ios.dSYM.zip');
      await storage.putBuffer(sameAsOther, multi);
      const conflict = await failure(client.updateDebugFile({ actor: dev, channelKey: key, id: original.file.id, objectKey: sameAsOther, size: multi.length, fileName: 'x.zip', releaseVersion: '', buildVersion: '' }));
      expect(conflict).toBeInstanceOf(AlreadyExists);
      expect((conflict as Error).message).toContain(`debug file ${other.file.id}`);
      expect((await client.getDebugFile({ actor: dev, channelKey: key, id: original.file.id })).metadata.map((m) => m.type)).toEqual(['arm64']);

      await client.deleteDebugFile({ actor: dev, channelKey: key, id: other.file.id });
      const replacement = `debug-files/${randomUUID()}`;
      await storage.putBuffer(replacement, multi);
      const updated = await client.updateDebugFile({ actor: dev, channelKey: key, id: original.file.id, objectKey: replacement, size: multi.length, fileName: 'x.zip', releaseVersion: '', buildVersion: '' });
      expect(updated).toMatchObject({ id: original.file.id, buildVersion: '2' });
      expect(updated.metadata.map((m) => m.type)).toEqual(['armv7', 'arm64']);
      expect(await storage.exists(original.objectKey)).toBe(false);
      expect((await client.findDownload({ channelKey: key, releaseVersion: '', buildVersion: '2', order: '', id: 0, expiresInSeconds: 60 })).objectKey).toBe(replacement);
      const byUuid = await client.listDebugFiles({ actor: dev, channelKey: key, uuid: '17f58291-dd25-3fc8-9417-ccbe8163d33e' });
      expect(byUuid.debugFiles.map((f) => f.id)).toEqual([original.file.id]);
    });

    it('when a file is deleted, then debug_file.deleted is published, its archive leaves storage and its content may come again', async () => {
      const probe = await eventProbe();
      try {
        const dev = await newUser();
        const { app, channel, key } = await channelOf(dev, 'iOS');
        const { file, objectKey } = await upload(dev, key, fixture('dsyms', 'multi_ios.dSYM.zip'));
        await client.deleteDebugFile({ actor: dev, channelKey: key, id: file.id });
        await expect(client.getDebugFile({ actor: dev, channelKey: key, id: file.id })).rejects.toBeInstanceOf(NotFound);
        await expect(client.deleteDebugFile({ actor: dev, channelKey: key, id: file.id })).rejects.toBeInstanceOf(NotFound);
        const ours = () => probe.seen.filter((e) => e.data.debug_file_id === file.id);
        await probe.waitFor(() => ours().some((e) => e.type === 'debug_file.deleted'));
        expect(ours()).toEqual([
          {
            type: 'debug_file.created',
            data: {
              debug_file_id: file.id,
              app_id: app.id,
              channel_id: channel.id,
              release_version: '1.0',
              build_version: '2',
              uuids: ['26dfc15d-bdce-351f-b5de-6ee9f5dd6d85', '17f58291-dd25-3fc8-9417-ccbe8163d33e'],
              kind: 'dsym',
              debug_ids: [
                { type: 'macho_uuid', id: '26dfc15d-bdce-351f-b5de-6ee9f5dd6d85' },
                { type: 'macho_uuid', id: '17f58291-dd25-3fc8-9417-ccbe8163d33e' },
              ],
            },
          },
          { type: 'debug_file.deleted', data: { debug_file_id: file.id, app_id: app.id, channel_id: channel.id } },
        ]);
        await eventually(async () => !(await storage.exists(objectKey)));
        await eventually(async () => (await service.deps.files.findAnyById(file.id)) === null);
        await expect(upload(dev, key, fixture('dsyms', 'multi_ios.dSYM.zip'))).resolves.toBeDefined();
      } finally {
        await probe.close();
      }
    });

    it('when the app is deleted, then all its debug files and their archives are removed; other apps keep theirs', async () => {
      const dev = await newUser();
      const doomed = await channelOf(dev, 'iOS');
      const kept = await channelOf(dev, 'iOS');
      const a = await upload(dev, doomed.key, fixture('dsyms', 'single_ios.dSYM.zip'));
      const b = await upload(dev, doomed.key, fixture('dsyms', 'multi_ios.dSYM.zip'));
      const c = await upload(dev, kept.key, fixture('dsyms', 'single_ios.dSYM.zip'));
      await appsClient.deleteApp({ actor: dev, id: doomed.app.id });

      await eventually(async () => !(await storage.exists(a.objectKey)) && !(await storage.exists(b.objectKey)));
      await eventually(async () => (await service.deps.files.findAnyById(a.file.id)) === null && (await service.deps.files.findAnyById(b.file.id)) === null);
      expect(await storage.exists(c.objectKey)).toBe(true);
      expect((await client.getDebugFile({ actor: dev, channelKey: kept.key, id: c.file.id })).id).toBe(c.file.id);
    });
  });
  describe('debug files of builds', () => {
    it('when the files of several builds are asked for at once, then each build gets exactly its live files, newest first; more than a page of builds is refused', async () => {
      const dev = await newUser();
      const { key, channel } = await channelOf(dev, 'Android');
      const a = await upload(dev, key, mappingZip('build-a-1'), { releaseVersion: '3.0', buildVersion: '1' });
      const b = await upload(dev, key, mappingZip('build-a-2'), { releaseVersion: '3.0', buildVersion: '1' });
      const other = await upload(dev, key, mappingZip('build-b'), { releaseVersion: '3.0', buildVersion: '2' });
      await client.deleteDebugFile({ actor: dev, channelKey: key, id: a.file.id });
      const builds = [
        { channelId: channel.id, releaseVersion: '3.0', buildVersion: '1' },
        { channelId: channel.id, releaseVersion: '3.0', buildVersion: '2' },
        { channelId: channel.id, releaseVersion: '3.0', buildVersion: '9' },
        { channelId: channel.id, releaseVersion: '3.0', buildVersion: '1' },
      ];
      const answer = await client.listBuildDebugFiles({ builds });
      expect(answer.builds.map((x) => x.debugFiles.map((f) => [f.id, f.kind]))).toEqual([[[b.file.id, 'proguard']], [[other.file.id, 'proguard']], [], [[b.file.id, 'proguard']]]);
      const tooMany = Array.from({ length: 101 }, (_, i) => ({ channelId: channel.id, releaseVersion: '3.0', buildVersion: String(i) }));
      expect(await failure(client.listBuildDebugFiles({ builds: tooMany }))).toBeInstanceOf(InvalidArgument);
    });
  });

  describe('symbol-server lookups', () => {
    it("when 60 other apps hold copies of the same build-id and the caller's own is the oldest, then a lookup by token or channel key still finds the caller's", async () => {
      fs.writeFileSync(path.join(workDir, 'shared.c'), 'int shared(int x) { return x * 3; }\nint main(void) { return shared(1); }\n');
      execFileSync('gcc', ['-g', '-Wl,--build-id', '-o', path.join(workDir, 'shared'), path.join(workDir, 'shared.c')]);
      execFileSync('objcopy', ['--only-keep-debug', path.join(workDir, 'shared'), path.join(workDir, 'shared.debug')]);
      const buildId = /Build ID: ([0-9a-f]+)/.exec(execFileSync('readelf', ['-n', path.join(workDir, 'shared')], { encoding: 'utf8' }))![1]!;
      const debug = fs.readFileSync(path.join(workDir, 'shared.debug'));

      const dev = await newUser();
      const mine = await channelOf(dev, 'Linux');
      const { file: own } = await upload(dev, mine.key, debug, { releaseVersion: '1.0', buildVersion: '1' });
      const stranger = await newUser();
      for (let batch = 0; batch < 6; batch++) {
        await Promise.all(
          Array.from({ length: 10 }, async () => {
            const theirs = await channelOf(stranger, 'Linux');
            await upload(stranger, theirs.key, debug, { releaseVersion: '1.0', buildVersion: '1' });
          }),
        );
      }

      const ask = { debugId: buildId, want: 'debuginfo', expiresInSeconds: 60, fileName: '' };
      await expect(client.findSymbolFile({ ...ask, actor: dev, channelKey: '' })).resolves.toMatchObject({ debugFileId: own.id });
      await expect(client.findSymbolFile({ ...ask, channelKey: mine.key })).resolves.toMatchObject({ debugFileId: own.id });
      // Someone who may read none of the 61 copies: refused, not told "none".
      expect(await failure(client.findSymbolFile({ ...ask, actor: await newUser('member'), channelKey: '' }))).toBeInstanceOf(PermissionDenied);
    });
  });
});
