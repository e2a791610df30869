import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { safeLoad } from 'js-yaml';
import { configLoader, configProblems, dependenciesOf, Env, hangarProcesses, processOfCommand, REPO_ROOT, undeclaredNames } from './config-schemas';
import { ComposeFile, ComposeService, dependsOn, durationSeconds, environmentOf, loadCompose } from './compose';

/**
 * docker-compose.yml checked against the code: every Hangar process runs with
 * an environment its own schema accepts, and starts only after what it talks
 * to is healthy.
 */

// A fresh `docker compose up -d` (no .env), and one where the operator chose credentials.
const OPERATOR_VARS: Env = {
  HANGAR_ADMIN_EMAIL: 'ops@example.com',
  HANGAR_ADMIN_PASSWORD: 'correct horse battery',
  HANGAR_ADMIN_TOKEN: 'an-operator-chosen-token-0123456789',
  S3_ACCESS_KEY: 'operator-key',
  S3_SECRET_KEY: 'operator-secret-0123456789',
  PUBLIC_BASE_URL: 'https://hangar.example.com',
  HANGAR_PORT: '9080',
};

const hangarServices = (compose: ComposeFile) =>
  Object.entries(compose.services).filter(([, s]) => processOfCommand(s.command) !== undefined) as [string, ComposeService][];
/** What a plain `docker compose up` starts besides Hangar (the profiles' services are checked below). */
const dependencyServices = (compose: ComposeFile) =>
  Object.entries(compose.services).filter(([, s]) => processOfCommand(s.command) === undefined && !s.profiles?.length) as [string, ComposeService][];

describe.each([
  ['no variables set', {}],
  ['the operator setting credentials, admin and port', OPERATOR_VARS],
])('docker-compose.yml with %s', (_label, vars: Env) => {
  const compose = loadCompose(vars);

  it('when parsed, then every Hangar process has one service, named after it, running its entry point from the one Hangar image', () => {
    const services = hangarServices(compose);
    expect(services.map(([name]) => name).sort()).toEqual(hangarProcesses());
    for (const [name, service] of services) expect(`${name}: ${processOfCommand(service.command)}`).toBe(`${name}: ${name}`);
    expect(new Set(services.map(([, s]) => s.image)).size).toBe(1);
    expect(new Set(services.map(([, s]) => JSON.stringify(s.build))).size).toBe(1);
  });

  it("when merged, then each Hangar service's environment passes its load…Config and names only variables its schema declares", () => {
    for (const [name, service] of hangarServices(compose)) {
      const env = environmentOf(service);
      expect({ name, invalid: configProblems(configLoader(name), env) }).toEqual({ name, invalid: [] });
      expect({ name, undeclared: undeclaredNames(name, env) }).toEqual({ name, undeclared: [] });
    }
  });

  it('when a Hangar service is configured to reach a host, then that host is a compose service it waits for with condition service_healthy', () => {
    let edges = 0;
    for (const [name, service] of hangarServices(compose)) {
      const config = configLoader(name)(environmentOf(service)) as Env;
      const deps = dependsOn(service);
      for (const dep of dependenciesOf(config)) {
        edges++;
        // Two services that call each other (none today; apps <-> releases once did) cannot both wait:
        // the one the other waits for starts first and must not wait back.
        const waitsForUs = dependsOn(compose.services[dep.host] ?? {})[name] === 'service_healthy';
        expect({ name, via: dep.variable, host: dep.host, exists: dep.host in compose.services, condition: waitsForUs ? 'service_healthy' : deps[dep.host] }).toEqual({
          name,
          via: dep.variable,
          host: dep.host,
          exists: true,
          condition: 'service_healthy',
        });
      }
    }
    expect(edges).toBeGreaterThanOrEqual(10);
  });

  it('when started, then no service waits, directly or not, for itself (Compose refuses a cycle)', () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (name: string, path: string[]): void => {
      if (done.has(name)) return;
      expect({ cycle: visiting.has(name) ? [...path, name] : undefined }).toEqual({ cycle: undefined });
      visiting.add(name);
      for (const next of Object.keys(dependsOn(compose.services[name] ?? {}))) visit(next, [...path, name]);
      visiting.delete(name);
      done.add(name);
    };
    for (const name of Object.keys(compose.services)) visit(name, []);
  });

  it('when anything is waited for, then it has a health check, and every Hangar service has one too', () => {
    const waitedFor = new Set(Object.values(compose.services).flatMap((s) => Object.keys(dependsOn(s))));
    for (const [name, service] of Object.entries(compose.services)) {
      if (service.profiles?.length) continue;
      if (!waitedFor.has(name) && processOfCommand(service.command) === undefined) continue;
      expect({ name, healthcheck: Boolean(service.healthcheck?.test) && !service.healthcheck?.disable }).toEqual({ name, healthcheck: true });
    }
    for (const [name] of dependencyServices(compose)) expect({ name, waitedFor: waitedFor.has(name) }).toEqual({ name, waitedFor: true });
  });

  it('when stopped, then Docker waits longer than each process gives its own shutdown', () => {
    for (const [name, service] of hangarServices(compose)) {
      const config = configLoader(name)(environmentOf(service));
      expect({ name, grace: durationSeconds(service.stop_grace_period) > Number(config.SHUTDOWN_TIMEOUT_MS) / 1000 }).toEqual({ name, grace: true });
    }
  });

  it('when the dependencies start, then MongoDB is 7 or later, NATS runs JetStream on a volume, images are pinned, and data lives in named volumes', () => {
    const deps = Object.fromEntries(dependencyServices(compose));
    for (const [name, service] of Object.entries(deps)) {
      expect({ name, image: service.image }).toEqual({ name, image: expect.stringMatching(/:(?!latest$)[\w.-]+$/) });
      for (const volume of service.volumes ?? []) {
        const source = typeof volume === 'string' ? volume.split(':')[0]! : volume.source ?? '';
        expect({ name, source, named: source in (compose.volumes ?? {}) }).toEqual({ name, source, named: true });
      }
    }
    expect(Number(/^mongo:(\d+)/.exec(deps.mongo?.image ?? '')?.[1])).toBeGreaterThanOrEqual(7);
    const nats = [deps.nats?.command ?? []].flat().join(' ');
    expect(nats).toMatch(/(^|\s)(-js|--jetstream)(\s|$)/);
    expect(nats).toMatch(/(^|\s)(-sd|--store_dir)\s/);
    expect(deps.minio?.image).toMatch(/:RELEASE\.\d{4}-/);
  });

  it("when MinIO starts, then its root credentials are the S3 keys the Hangar services use", () => {
    const minio = environmentOf(compose.services.minio!);
    for (const [name, service] of hangarServices(compose)) {
      const env = environmentOf(service);
      if (!env.S3_ENDPOINT) continue;
      expect({ name, key: env.S3_ACCESS_KEY, secret: env.S3_SECRET_KEY }).toEqual({ name, key: minio.MINIO_ROOT_USER, secret: minio.MINIO_ROOT_PASSWORD });
    }
  });

  it('when started, then the gateway publishes the port it listens on and users receives the admin bootstrap variables', () => {
    const gateway = compose.services.gateway!;
    const config = configLoader('gateway')(environmentOf(gateway));
    expect(gateway.ports?.map(String)).toEqual([`${vars.HANGAR_PORT ?? 8080}:${config.HANGAR_PORT}`]);
    const users = environmentOf(compose.services.users!);
    expect(Object.keys(users)).toEqual(expect.arrayContaining(['HANGAR_ADMIN_EMAIL', 'HANGAR_ADMIN_PASSWORD', 'HANGAR_ADMIN_TOKEN']));
    const admin = configLoader('users')(users);
    expect({ email: admin.HANGAR_ADMIN_EMAIL, token: admin.HANGAR_ADMIN_TOKEN }).toEqual({
      email: vars.HANGAR_ADMIN_EMAIL ?? 'admin@hangar.local',
      token: vars.HANGAR_ADMIN_TOKEN,
    });
  });
});

/**
 * `docker compose --profile observability up`: Prometheus, Grafana, an
 * OpenTelemetry collector and Jaeger beside Hangar, configured from
 * deploy/observability. What Docker would find is checked here: every mounted
 * file exists and parses, and each points at a service and port that exist.
 */
describe('docker-compose.yml, the observability profile', () => {
  const compose = loadCompose();
  const profile = Object.entries(compose.services).filter(([, s]) => s.profiles?.includes('observability'));
  const service = (name: string) => compose.services[name]!;
  /** Bind mounts (./path:/target[:ro]) as [repository path, container path]. */
  const binds = (s: ComposeService) =>
    (s.volumes ?? []).filter((v): v is string => typeof v === 'string' && v.startsWith('./')).map((v) => v.split(':') as [string, string, ...string[]]);
  const readMounted = (name: string, containerPath: string): string => {
    for (const [source, target] of binds(service(name))) {
      if (containerPath === target) return fs.readFileSync(path.join(REPO_ROOT, source), 'utf8');
      if (containerPath.startsWith(`${target}/`)) return fs.readFileSync(path.join(REPO_ROOT, source, containerPath.slice(target.length + 1)), 'utf8');
    }
    throw new Error(`${name} has nothing mounted at ${containerPath}`);
  };
  const exposes = (name: string, port: number) =>
    [...(service(name).expose ?? []), ...(service(name).ports ?? []).map((p) => String(p).split(':').at(-1))].map(String).includes(String(port));

  it('when the profile is on, then it adds exactly the collector, Jaeger, Prometheus and Grafana, with pinned images; a plain up starts none of them', () => {
    expect(profile.map(([name]) => name).sort()).toEqual(['grafana', 'jaeger', 'otel-collector', 'prometheus']);
    for (const [name, s] of profile) expect({ name, image: s.image }).toEqual({ name, image: expect.stringMatching(/:v?\d+\.\d+\.\d+$/) });
    for (const [name, s] of Object.entries(compose.services)) {
      if (s.profiles?.length) continue;
      // A default service must not wait for one the profile may leave out.
      for (const dep of Object.keys(dependsOn(s))) expect({ name, dep, profiled: Boolean(service(dep).profiles?.length) }).toEqual({ name, dep, profiled: false });
    }
  });

  it('when mounted, then every config file exists in deploy/observability and parses, and data lives in named volumes', () => {
    let files = 0;
    for (const [name, s] of profile) {
      for (const [source] of binds(s)) {
        expect({ name, source }).toEqual({ name, source: expect.stringMatching(/^\.\/deploy\/observability\//) });
        const full = path.join(REPO_ROOT, source);
        const all = fs.statSync(full).isDirectory() ? fs.readdirSync(full, { recursive: true, encoding: 'utf8' }).map((f) => path.join(full, f)) : [full];
        for (const file of all.filter((f) => fs.statSync(f).isFile())) {
          files++;
          const text = fs.readFileSync(file, 'utf8');
          const parsed = file.endsWith('.json') ? JSON.parse(text) : safeLoad(text);
          expect({ file: path.relative(REPO_ROOT, file), parsed: typeof parsed }).toEqual({ file: path.relative(REPO_ROOT, file), parsed: 'object' });
        }
      }
      for (const volume of s.volumes ?? []) {
        const source = typeof volume === 'string' ? volume.split(':')[0]! : volume.source ?? '';
        if (!source.startsWith('./')) expect({ name, source, named: source in (compose.volumes ?? {}) }).toEqual({ name, source, named: true });
      }
    }
    expect(files).toBeGreaterThanOrEqual(7);
  });

  it('when Prometheus starts, then promtool accepts its config and it scrapes every Hangar service on the metrics port that service listens on, and loads the alerting rules', () => {
    const config = safeLoad(readMounted('prometheus', '/etc/prometheus/prometheus.yml')) as {
      rule_files: string[];
      scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
    };
    const [, configDir] = binds(service('prometheus')).find(([, target]) => target === '/etc/prometheus')!;
    expect(configDir).toBe('/etc/prometheus');
    execFileSync('promtool', ['check', 'config', path.join(REPO_ROOT, 'deploy', 'observability', 'prometheus', 'prometheus.yml')], { stdio: 'pipe' });
    expect(config.rule_files).toEqual(['alerts.yml']);
    const targets = Object.fromEntries(config.scrape_configs.map((c) => [c.job_name, c.static_configs.flatMap((x) => x.targets)]));
    for (const [name, s] of hangarServices(compose)) {
      const metricsPort = configLoader(name)(environmentOf(s)).METRICS_PORT;
      expect({ name, targets: targets[name] }).toEqual({ name, targets: [`${name}:${metricsPort}`] });
      expect({ name, exposed: exposes(name, Number(metricsPort)) }).toEqual({ name, exposed: true });
    }
    for (const [job, hosts] of Object.entries(targets)) for (const host of hosts) expect({ job, host, service: host.split(':')[0]! in compose.services }).toEqual({ job, host, service: true });
    expect(exposes('otel-collector', Number(targets['otel-collector']?.[0]?.split(':')[1]))).toBe(true);
  });

  it('when Grafana starts, then its data sources point at Prometheus and Jaeger on their ports, and it loads the dashboard from where it is mounted', () => {
    const sources = (safeLoad(readMounted('grafana', '/etc/grafana/provisioning/datasources/hangar.yaml')) as { datasources: { type: string; uid: string; url: string }[] }).datasources;
    const url = (type: string) => new URL(sources.find((d) => d.type === type)!.url);
    expect({ host: url('prometheus').hostname, port: url('prometheus').port }).toEqual({ host: 'prometheus', port: '9090' });
    expect({ host: url('jaeger').hostname, port: url('jaeger').port }).toEqual({ host: 'jaeger', port: '16686' });
    const providers = (safeLoad(readMounted('grafana', '/etc/grafana/provisioning/dashboards/hangar.yaml')) as { providers: { options: { path: string } }[] }).providers;
    const dashboard = JSON.parse(readMounted('grafana', `${providers[0]!.options.path}/hangar.json`)) as { uid: string; panels: unknown[] };
    expect(dashboard.uid).toBe('hangar-overview');
    expect(environmentOf(service('grafana')).GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH).toBe(`${providers[0]!.options.path}/hangar.json`);
    expect(sources.find((d) => d.type === 'prometheus')!.uid).toBe('prometheus');
  });

  it('when the collector starts, then it receives OTLP on 4317 and 4318 and its traces pipeline ends at Jaeger over OTLP', () => {
    const config = safeLoad(readMounted('otel-collector', '/etc/otelcol/config.yaml')) as {
      receivers: Record<string, { protocols: Record<string, { endpoint: string }> }>;
      processors: Record<string, unknown>;
      exporters: Record<string, { endpoint: string }>;
      service: { pipelines: Record<string, { receivers: string[]; processors: string[]; exporters: string[] }> };
    };
    expect(service('otel-collector').command).toEqual(['--config=/etc/otelcol/config.yaml']);
    expect(Object.values(config.receivers.otlp!.protocols).map((p) => p.endpoint.split(':')[1]).sort()).toEqual(['4317', '4318']);
    for (const port of [4317, 4318]) expect(exposes('otel-collector', port)).toBe(true);
    const traces = config.service.pipelines.traces!;
    for (const r of traces.receivers) expect(config.receivers[r]).toBeDefined();
    for (const p of traces.processors) expect(config.processors[p]).toBeDefined();
    for (const e of traces.exporters) {
      const [host, port] = config.exporters[e]!.endpoint.split(':');
      expect({ e, host, port }).toEqual({ e, host: 'jaeger', port: '4317' });
      expect(exposes('jaeger', Number(port))).toBe(true);
      expect(environmentOf(service('jaeger')).COLLECTOR_OTLP_ENABLED).toBe('true');
    }
  });
});
