import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { checkHealth } from '@hangar/grpc';
import { REPO_ROOT, freePort } from '@hangar/infra';
import { RunningHangar, apiClient, eventually, fixturesDir, startHangar, testInfrastructure, uniqueName } from '@hangar/testing';

/**
 * RELEASES_MODE=parse-workers, the parse-workers Deployment of deploy/k8s:
 * the releases entry point started with only its package-parsing workers.
 * Hangar runs with no parsing worker of its own (PARSE_WORKER_ENABLED=false),
 * so an upload is parsed by the workers-only process or not at all.
 */
describe('releases in the parse-workers mode', () => {
  const infra = testInfrastructure();
  const prefix = uniqueName('e2e-workers');
  const bucket = uniqueName('e2e-workers');
  let hangar: RunningHangar;
  let workers: ChildProcess | undefined;
  let workersOutput = '';
  let grpcPort: number;
  let metricsPort: number;

  const upload = async (file: string) => {
    const api = apiClient(hangar.baseUrl);
    return api('POST', '/api/apps/upload', {
      form: { token: hangar.adminToken, name: `Workers ${Date.now()}` },
      files: { file: { data: fs.readFileSync(path.join(fixturesDir(), 'apps', file)), fileName: file } },
    });
  };

  beforeAll(async () => {
    hangar = await startHangar({ PARSE_WORKER_ENABLED: 'false', NATS_SUBJECT_PREFIX: prefix, S3_BUCKET: bucket });
    grpcPort = await freePort();
    metricsPort = await freePort();
  });

  afterAll(async () => {
    if (workers && workers.exitCode === null) {
      const exited = new Promise((resolve) => workers!.once('exit', resolve));
      workers.kill('SIGTERM');
      await exited;
    }
    await hangar?.stop();
  });

  it('when no worker runs, then an upload is refused as unavailable (nothing else parses)', async () => {
    const res = await upload('android.apk');
    expect(res.status).toBe(503);
  });

  it('when started in the mode, then it becomes healthy on /healthz and an upload is parsed by it', async () => {
    // Only what the mode needs: NATS, S3, no MONGO_URL and no gRPC target.
    // GRPC_LISTEN is given to show it is not used.
    workers = spawn(process.execPath, [path.join(REPO_ROOT, 'services', 'releases', 'dist', 'main.js')], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH,
        RELEASES_MODE: 'parse-workers',
        LOG_LEVEL: 'info',
        METRICS_PORT: String(metricsPort),
        GRPC_LISTEN: `127.0.0.1:${grpcPort}`,
        NATS_URL: infra.natsUrl,
        NATS_SUBJECT_PREFIX: prefix,
        S3_ENDPOINT: infra.s3.endpoint,
        S3_ACCESS_KEY: infra.s3.accessKey,
        S3_SECRET_KEY: infra.s3.secretKey,
        S3_BUCKET: bucket,
        PARSE_WORKER_CONCURRENCY: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    workers.stdout?.on('data', (d: Buffer) => (workersOutput += d.toString()));
    workers.stderr?.on('data', (d: Buffer) => (workersOutput += d.toString()));
    const started = workers;
    await eventually(
      async () => {
        if (started.exitCode !== null) throw new Error(`the workers exited: ${workersOutput}`);
        return (await fetch(`http://127.0.0.1:${metricsPort}/healthz`).then((r) => r.status, () => 0)) === 200;
      },
      { timeoutMs: 30_000, stepMs: 100, what: 'the workers healthy', explain: () => workersOutput },
    );

    const res = await upload('android.apk');
    expect({ status: res.status, bundleId: res.body?.bundle_id }).toEqual({ status: 201, bundleId: 'com.icyleaf.appinfodemo' });
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toMatch(/^hangar_package_parse_seconds_count\{format="apk",outcome="ok"\} 1$/m);
    expect(metrics).toMatch(/^hangar_package_parse_queue_depth 0$/m);
  });

  it('when running in the mode, then it serves no gRPC and runs no RPC server or client, event consumer, outbox relay or janitor', async () => {
    expect(workers?.exitCode).toBeNull();
    expect(await checkHealth(`127.0.0.1:${grpcPort}`).catch(() => false)).toBe(false);
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(grpcPort, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
    // Each of those registers its series when it starts; the releases service's /metrics has them all.
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const service = await (await fetch(`http://127.0.0.1:${hangar.metricsPortOf('releases')}/metrics`)).text();
    for (const series of ['hangar_grpc_server_handled_total', 'hangar_grpc_client_handled_total', 'hangar_event_consumer_processed_total', 'hangar_outbox_lag_seconds', 'hangar_storage_janitor_runs_total']) {
      expect({ series, workers: metrics.includes(`# TYPE ${series} `), service: service.includes(`# TYPE ${series} `) }).toEqual({ series, workers: false, service: true });
    }
  });
});
