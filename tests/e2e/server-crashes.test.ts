import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '@hangar/infra';
import { RunningHangar, eventuallyValue, fixturesDir, startHangar, uniqueName, warmUp } from '@hangar/testing';
import { eventually } from './webhook-receiver';

/**
 * The servers `npm run up` starts for itself — PostgreSQL, FerretDB, versitygw,
 * nats-server — are supervised. Each is killed with SIGKILL in turn (what the OOM killer does) under
 * a light steady load of uploads and reads, in one Hangar that started all four itself (its own
 * ports, not the suite's servers). While one is down, /api/health answers 503 and names the
 * dependency; the launcher starts it again and Hangar answers again without a hand; no request is
 * ever answered 500 (every failure a 503 with Retry-After in the contract's shape); every upload
 * acknowledged 201 is listed and serves its bytes afterwards. Then the gateway is killed while NATS
 * is down: the audit entry of a write it answered must still arrive (its spool, audit-spool.ts).
 */

/** The launcher's wait before restarting a crashed server: long enough to see the outage in /api/health. */
const RESTART_DELAY_MS = 6_000;
const SERVERS = [
  { name: 'postgres', dependency: 'database' },
  { name: 'ferretdb', dependency: 'database' },
  { name: 'versitygw', dependency: 'storage' },
  { name: 'nats-server', dependency: 'events' },
] as const;
type Phase = 'warmup' | (typeof SERVERS)[number]['name'] | 'after';

interface Answer {
  what: 'upload' | 'read:versions' | 'read:download' | 'read:users' | 'health';
  phase: Phase;
  status: number | 'network';
  retryAfter: string | null;
  body: unknown;
  sha?: string;
}

const sha256 = (data: Buffer | ArrayBuffer) => createHash('sha256').update(Buffer.from(data as ArrayBuffer)).digest('hex');

describe('kill -9 of each server npm run up started, under load', () => {
  const apk = fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk'));
  let hangar: RunningHangar;
  let phase: Phase = 'warmup';
  const answers: Answer[] = [];
  let channelKey = '';
  let knownReleaseId = 0;

  beforeAll(async () => {
    const [mongoPort, s3Port, natsPort] = [await freePort(), await freePort(), await freePort()];
    hangar = await startHangar({
      // Empty: the launcher resolves each itself and, finding nothing on these ports, starts it.
      MONGO_URL: '',
      POSTGRES_URL: '',
      S3_ENDPOINT: '',
      NATS_URL: '',
      HANGAR_MONGO_PORT: String(mongoPort),
      HANGAR_S3_PORT: String(s3Port),
      HANGAR_NATS_PORT: String(natsPort),
      HANGAR_SERVER_RESTART_DELAY_MS: String(RESTART_DELAY_MS),
      GRPC_DEADLINE_MS: '3000',
      UPLOAD_DEADLINE_MS: '8000',
    });
    expect(hangar.output()).toMatch(/MongoDB: +FerretDB on PostgreSQL [\d.]+ started here/);
    expect(hangar.output()).toContain(`NATS:        nats-server started here`);
    expect(hangar.output()).toContain(`S3:          versitygw started here`);
    // The 3 s deadline holds the first calls of cold processes too, which a loaded machine can
    // miss (503 "try again shortly", as kill-each-service's setup has seen in CI): warmed first.
    await warmUp(hangar);
    const first = await upload();
    if (first.status !== 201) throw new Error(`the first upload failed: ${JSON.stringify(first)}`);
    const release = first.body as { id: number; channel: { slug: string } };
    [knownReleaseId, channelKey] = [release.id, release.channel.slug];
  }, 240_000);

  afterAll(async () => {
    await hangar?.stop();
  });

  async function ask(what: Answer['what'], request: () => Promise<Response>, sha?: string): Promise<Answer> {
    const at = phase;
    let answer: Answer;
    try {
      const res = await request();
      const text = await res.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // Not JSON: kept as text for the failure message.
      }
      answer = { what, phase: at, status: res.status, retryAfter: res.headers.get('retry-after'), body, sha };
    } catch {
      answer = { what, phase: at, status: 'network', retryAfter: null, body: undefined, sha };
    }
    answers.push(answer);
    return answer;
  }

  function upload(): Promise<Answer> {
    const form = new FormData();
    form.append('token', hangar.adminToken);
    if (channelKey) form.append('channel_key', channelKey);
    form.append('file', new Blob([apk]), 'android.apk');
    return ask('upload', () => fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form }), sha256(apk));
  }

  function read(i: number): Promise<Answer> {
    const auth = { authorization: `Bearer ${hangar.adminToken}` };
    const reads: [Answer['what'], string, Record<string, string>][] = [
      ['read:versions', `/api/apps/versions?channel_key=${channelKey}&per_page=5`, {}],
      ['read:download', `/api/releases/${knownReleaseId}/download`, {}],
      // The users service's database on every request (/api/users/me is answered from the gateway's cache).
      ['read:users', '/api/users?per_page=1', auth],
    ];
    const [what, p, headers] = reads[i % reads.length]!;
    return ask(what, () => fetch(`${hangar.baseUrl}${p}`, { headers, redirect: 'manual' }));
  }

  const health = () => ask('health', () => fetch(`${hangar.baseUrl}/api/health`));

  function pidOf(name: string): number | undefined {
    try {
      return Number(fs.readFileSync(path.join(hangar.dataDir, 'run', `${name}.pid`), 'utf8')) || undefined;
    } catch {
      return undefined;
    }
  }

  it('when each server is killed with SIGKILL, then health says so with 503, the launcher restarts it, Hangar answers again, no answer is a 500 and no acknowledged upload is lost', async () => {
    let running = true;
    // A light steady load: one upload at a time (paced while refused, not to spin on fast 503s),
    // and reads paced at about five a second.
    const pace = () => new Promise((resolve) => setTimeout(resolve, 200));
    const loops = [
      (async () => {
        while (running) if ((await upload()).status !== 201) await pace();
      })(),
      (async () => {
        for (let i = 0; running; i++) {
          await read(i);
          await pace();
        }
      })(),
    ];
    const seen: Record<string, { unavailableBeforeRestart: boolean; checks?: unknown; recoveredMs?: number }> = {};
    try {
      await eventually(async () => (await health()).status === 200, 30_000, 'healthy before the kills');
      for (const { name, dependency } of SERVERS) {
        phase = name;
        const before = pidOf(name);
        expect({ name, pid: before }).toEqual({ name, pid: expect.any(Number) });
        const killedAt = Date.now();
        process.kill(before!, 'SIGKILL');
        // Health must say so while the server is gone (its restart waits RESTART_DELAY_MS).
        let during: Answer | undefined;
        await eventually(
          async () => {
            const h = await health();
            if (h.status === 503) during = h;
            return during !== undefined || pidOf(name) !== before;
          },
          RESTART_DELAY_MS * 4,
          `${name}: health answering 503, or the server restarted`,
        );
        const restartedYet = pidOf(name) !== before;
        seen[name] = { unavailableBeforeRestart: during !== undefined && !restartedYet, checks: (during?.body as { checks?: unknown })?.checks };
        expect({ name, unavailableBeforeRestart: seen[name]!.unavailableBeforeRestart }).toEqual({ name, unavailableBeforeRestart: true });
        expect({ name, body: during!.body, retryAfter: during!.retryAfter }).toEqual({
          name,
          body: expect.objectContaining({ healthy: false, checks: expect.objectContaining({ [dependency]: 'unavailable' }) }),
          retryAfter: expect.stringMatching(/^\d+$/),
        });
        // The supervisor starts it again; Hangar is healthy, and uploads and reads are answered, within seconds.
        await eventually(() => pidOf(name) !== before, RESTART_DELAY_MS * 4, `${name} restarted by the launcher`);
        await eventually(async () => (await health()).status === 200, 60_000, `${name}: health 200 again`);
        await eventually(async () => (await upload()).status === 201, 30_000, `${name}: an upload accepted again`);
        await eventually(async () => (await read(0)).status === 200, 30_000, `${name}: a read answered again`);
        seen[name]!.recoveredMs = Date.now() - killedAt;
      }
      phase = 'after';
      await eventually(async () => (await upload()).status === 201, 30_000, 'an upload after all the kills');
    } finally {
      running = false;
      await Promise.all(loops);
    }

    const summary = Object.fromEntries(
      (['warmup', ...SERVERS.map((s) => s.name), 'after'] as Phase[]).map((p) => {
        const inPhase = answers.filter((a) => a.phase === p);
        const count = (status: number) => inPhase.filter((a) => a.status === status).length;
        return [p, { answers: inPhase.length, ok: count(200) + count(201) + count(302), unavailable: count(503) }];
      }),
    );
    process.stdout.write(`server-crashes: ${JSON.stringify(seen)}; ${JSON.stringify(summary)}\n`);

    // Every answer is the success its request expects, or a 503 with Retry-After in the contract's
    // shape (health: its own body). Never a 500; never no answer (the gateway was never killed).
    const expected: Record<Answer['what'], number> = { upload: 201, 'read:versions': 200, 'read:download': 302, 'read:users': 200, health: 200 };
    const unexpected = answers.filter((a) => {
      if (a.status === expected[a.what]) return false;
      if (a.status !== 503 || !a.retryAfter || !/^\d+$/.test(a.retryAfter)) return true;
      const body = a.body as Record<string, unknown>;
      if (a.what === 'health') return body?.healthy !== false;
      return typeof body !== 'object' || typeof body.error !== 'string' || Object.keys(body).some((k) => k !== 'error' && k !== 'entry');
    });
    expect(unexpected.map(({ what, phase: p, status, retryAfter, body }) => ({ what, phase: p, status, retryAfter, body }))).toEqual([]);

    // Every upload acknowledged 201 is listed and serves exactly the bytes sent.
    const acknowledged = answers.filter((a) => a.what === 'upload' && a.status === 201).map((a) => (a.body as { id: number }).id);
    const listed = new Set<number>();
    for (let page = 1; ; page++) {
      const res = await fetch(`${hangar.baseUrl}/api/apps/versions?channel_key=${channelKey}&per_page=100&page=${page}`);
      expect(res.status).toBe(200);
      const { releases } = (await res.json()) as { releases: { id: number }[] };
      for (const r of releases) listed.add(r.id);
      if (releases.length < 100) break;
    }
    expect(acknowledged.filter((id) => !listed.has(id))).toEqual([]);
    for (const id of acknowledged) {
      const res = await fetch(`${hangar.baseUrl}/api/releases/${id}/download`, { redirect: 'manual' });
      await res.arrayBuffer();
      const file = res.status === 302 ? await fetch(res.headers.get('location')!) : undefined;
      const sha = file?.status === 200 ? sha256(await file.arrayBuffer()) : `${res.status}/${file?.status}`;
      expect({ id, sha }).toEqual({ id, sha: sha256(apk) });
    }
  }, 420_000);

  it('when the gateway is killed holding audit entries NATS could not take, then it sends them when the launcher starts it again', async () => {
    await eventually(async () => (await health()).status === 200, 60_000, 'healthy before');
    const nats = pidOf('nats-server')!;
    const gateway = pidOf('gateway')!;
    process.kill(nats, 'SIGKILL');
    await eventually(async () => ((await health()).body as { checks?: Record<string, string> })?.checks?.events === 'unavailable', 30_000, 'the gateway seeing NATS gone');
    // A write while NATS is down (answered 201 or 503: audited either way); its entry can only
    // wait in the gateway — which is killed before NATS is back.
    const requestId = `audit-spool-${uniqueName('kill')}`;
    const write = await fetch(`${hangar.baseUrl}/api/apps`, {
      method: 'POST',
      headers: { authorization: `Bearer ${hangar.adminToken}`, 'x-request-id': requestId },
      body: new URLSearchParams({ name: uniqueName('audited-through-a-kill') }),
    });
    await write.arrayBuffer();
    expect(write.headers.get('x-request-id')).toBe(requestId);
    expect(pidOf('nats-server')).toBe(nats);
    process.kill(gateway, 'SIGKILL');

    await eventually(() => pidOf('gateway') !== gateway && pidOf('nats-server') !== nats, 60_000, 'the gateway and NATS started again');
    await eventually(async () => (await health()).status === 200, 60_000, 'healthy after');
    const entries = await eventuallyValue(
      async () => {
        const res = await fetch(`${hangar.baseUrl}/api/audit?operation=createApp&per_page=100`, { headers: { authorization: `Bearer ${hangar.adminToken}` } });
        return (await res.json()) as { request_id: string; status: number }[];
      },
      (found) => found.some((e) => e.request_id === requestId),
      { timeoutMs: 30_000, what: 'the audit entry of the write answered before the kill' },
    );
    expect(entries.find((e) => e.request_id === requestId)).toEqual(expect.objectContaining({ request_id: requestId, status: write.status }));
  }, 240_000);
});
