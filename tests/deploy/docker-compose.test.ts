import { configLoader, configProblems, dependenciesOf, Env, hangarProcesses, processOfCommand, undeclaredNames } from './config-schemas';
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
const dependencyServices = (compose: ComposeFile) =>
  Object.entries(compose.services).filter(([, s]) => processOfCommand(s.command) === undefined) as [string, ComposeService][];

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
        // Two services that call each other (apps <-> releases) cannot both wait:
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
