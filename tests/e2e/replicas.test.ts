import fs from 'node:fs';
import path from 'node:path';
import { SERVICES } from '@hangar/infra';
import { RunningHangar, eventually, fixturesDir, startHangar, uniqueName } from '@hangar/testing';

/**
 * `HANGAR_REPLICAS=2 npm run up`: two processes of every service and two
 * gateways behind the launcher's round-robin proxy on the public port. Each
 * replica takes a share of the work (its own request counters move), and
 * with one replica of every process killed the API keeps answering from the
 * others while the supervisor brings them back.
 */
// Every service the launcher starts: one added to its list is checked here too, and
// `oneOfEach` below does not compile until it names a request that reaches it.
const PROCESSES = ['gateway', ...SERVICES] as const;
type ProcessName = (typeof PROCESSES)[number];
/** How long after a kill a caller may still pick the dead process: it drops its connections at once. */
const NOTICE_MS = 500;

describe('two replicas of every process', () => {
  let hangar: RunningHangar;
  let appId: number;
  let channelKey: string;

  beforeAll(async () => {
    hangar = await startHangar({ HANGAR_REPLICAS: '2', S3_BUCKET: uniqueName('e2e-replicas') });
    const form = new FormData();
    form.append('token', hangar.adminToken);
    form.append('name', uniqueName('Replicated'));
    form.append('file', new Blob([fs.readFileSync(path.join(fixturesDir(), 'apps', 'android.apk'))]), 'android.apk');
    const res = await fetch(`${hangar.baseUrl}/api/apps/upload`, { method: 'POST', body: form });
    const body = (await res.json()) as { app: { id: number }; channel: { slug: string } };
    expect(res.status).toBe(201);
    appId = body.app.id;
    channelKey = body.channel.slug;
  }, 240_000);

  afterAll(async () => {
    await hangar?.stop();
  });

  /** One request that needs each service (and a gateway); the status of each. */
  async function oneOfEach(): Promise<Record<string, number | string>> {
    const auth = { authorization: `Bearer ${hangar.adminToken}` };
    const requests: Record<(typeof SERVICES)[number], [string, Record<string, string>]> = {
      users: ['/api/users?per_page=1', auth],
      apps: [`/api/apps/${appId}`, auth],
      releases: [`/api/apps/versions?channel_key=${channelKey}&per_page=1`, {}],
      'debug-files': [`/api/debug_files?channel_key=${channelKey}&per_page=1`, auth],
      webhooks: [`/api/apps/${appId}/webhooks`, auth],
    };
    const statuses: Record<string, number | string> = {};
    for (const [name, [p, headers]] of Object.entries(requests)) {
      try {
        const res = await fetch(`${hangar.baseUrl}${p}`, { headers });
        await res.arrayBuffer();
        statuses[name] = res.status;
      } catch (err) {
        statuses[name] = `no answer: ${(err as Error).message}`;
      }
    }
    return statuses;
  }

  /** Requests a replica has answered: HTTP requests for a gateway, RPCs (health checks aside) for a service. */
  async function answered(name: ProcessName, replica: number): Promise<number> {
    const text = await (await fetch(`http://127.0.0.1:${hangar.metricsPortOf(name, replica)}/metrics`)).text();
    const series = name === 'gateway' ? 'hangar_http_requests_total' : 'hangar_grpc_server_handled_total';
    let sum = 0;
    for (const line of text.split('\n')) {
      if (!line.startsWith(`${series}{`) || line.includes('grpc.health.v1.Health')) continue;
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
    return sum;
  }

  const allOk = Object.fromEntries(SERVICES.map((name) => [name, 200]));

  it('when started, then the printed URL is the proxy clients use, and every process runs twice with its own files', async () => {
    expect(hangar.output()).toContain(`Hangar is running at ${hangar.baseUrl}`);
    expect(hangar.output()).toContain('replicas:    2');
    for (const name of PROCESSES) {
      const pids = hangar.pidsOf(name);
      expect({ name, distinct: new Set(pids).size }).toEqual({ name, distinct: 2 });
      for (const pid of pids) expect(() => process.kill(pid, 0)).not.toThrow();
      expect(new Set(hangar.metricsPortsOf(name)).size).toBe(2);
    }
  });

  it('when requests come in, then both replicas of the gateway and of every service answer a share of them', async () => {
    for (let i = 0; i < 10; i++) expect(await oneOfEach()).toEqual(allOk);
    for (const name of PROCESSES) {
      const counts = [await answered(name, 0), await answered(name, 1)];
      expect({ name, bothAnswered: counts.every((c) => c > 0), counts }).toEqual({ name, bothAnswered: true, counts });
    }
  });

  it('when one replica of every process is killed, then the API keeps answering from the others, and the killed ones come back and take their share again', async () => {
    const killed = PROCESSES.map((name) => hangar.pidOf(name, 0));
    for (const pid of killed) process.kill(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, NOTICE_MS));
    // The supervisor waits 500 ms and a Node process takes a while to start: these are served by the other replicas.
    for (let i = 0; i < 5; i++) expect(await oneOfEach()).toEqual(allOk);

    // Back: a new process in the first slot, answering its share again — every request meanwhile answered.
    const back = async (name: ProcessName, i: number) => hangar.pidOf(name, 0) !== killed[i] && (await answered(name, 0).catch(() => 0)) > 0;
    let states: boolean[] = [];
    await eventually(
      async () => {
        expect(await oneOfEach()).toEqual(allOk);
        states = await Promise.all(PROCESSES.map(back));
        return states.every(Boolean);
      },
      { timeoutMs: 90_000, stepMs: 100, what: 'every killed process back', explain: () => `not back: ${PROCESSES.filter((_, i) => !states[i]).join(', ')}` },
    );
  }, 150_000);
});
