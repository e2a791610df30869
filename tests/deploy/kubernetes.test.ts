import { execFileSync } from 'node:child_process';
import path from 'node:path';
import fs from 'node:fs';
import { ConfigLoader, configLoader, configProblems, declares, dependenciesOf, Env, hangarProcesses, processOfCommand, REPO_ROOT, undeclaredNames } from './config-schemas';
import { K8sObject, quantity, render } from './kustomize';
import { connectionAllowed, Endpoint, selects } from './network-policy';

/**
 * deploy/k8s rendered as an operator applies it, checked against the code:
 * the processes under services/, their config schemas, their ports.
 */

// Rendering builds kustomize with Go the first time on a machine without kubectl >= 1.27.
const RENDER_TIMEOUT_MS = 600_000;

const GRPC_PORT = 50051;
const HTTP_PORT = 8080;
const METRICS_PORT = 9464;
const NODE_UID = 1000; // the node image's "node" user, the Dockerfile's USER

interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: { name?: string; containerPort: number; protocol?: string }[];
  env?: {
    name: string;
    value?: string;
    valueFrom?: { configMapKeyRef?: KeyRef; secretKeyRef?: KeyRef };
  }[];
  envFrom?: unknown[];
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] }; sleep?: { seconds: number } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown> & { capabilities?: { drop?: string[] } };
  volumeMounts?: { name: string; mountPath: string }[];
}
interface KeyRef {
  name: string;
  key: string;
  optional?: boolean;
}
interface Probe {
  grpc?: { port: number; service?: string };
  httpGet?: { path: string; port: number | string };
  tcpSocket?: { port: number | string };
}

const byKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const find = (objects: K8sObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);
const containerOf = (deployment: K8sObject): Container => {
  const containers = deployment.spec.template.spec.containers as Container[];
  expect(containers).toHaveLength(1);
  return containers[0]!;
};
const podLabels = (deployment: K8sObject): Record<string, string> => deployment.spec.template.metadata.labels;
/** The Hangar process a Deployment runs (its entry point); a mode Deployment runs one under another name. */
const processOf = (deployment: K8sObject): string => processOfCommand(containerOf(deployment).command) ?? `(no Hangar entry point in ${deployment.metadata.name})`;
/** The parse workers: releases' entry point with RELEASES_MODE=parse-workers, no gRPC port. */
const isWorkersOnly = (deployment: K8sObject) => containerOf(deployment).env?.some((e) => e.name === 'RELEASES_MODE' && e.value === 'parse-workers') ?? false;

/** Each object checked against its Kubernetes API schema (tests/deploy/validate-manifests.mjs). */
function schemaErrors(objects: K8sObject[]): { kind: string; name: string; error: string | null }[] {
  const out = execFileSync(process.execPath, [path.join(REPO_ROOT, 'tests', 'deploy', 'validate-manifests.mjs')], {
    input: JSON.stringify(objects),
    encoding: 'utf8',
    cwd: REPO_ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out);
}
const namedPorts = (c: Container) => Object.fromEntries((c.ports ?? []).filter((p) => p.name).map((p) => [p.name!, p.containerPort]));
const portNumber = (c: Container, port: number | string) => (typeof port === 'number' ? port : namedPorts(c)[port]);

/**
 * The environment the kubelet gives the container. Secrets come from the
 * render, or — in production, where the Secret is created out of band — from
 * the base's documented placeholder Secret.
 */
function containerEnv(container: Container, objects: K8sObject[], documentedSecrets: K8sObject[]): { env: Env; problems: string[] } {
  const env: Env = {};
  const problems: string[] = [];
  if (container.envFrom) problems.push('envFrom hands a process every key of a ConfigMap/Secret; list the variables it reads instead');
  for (const entry of container.env ?? []) {
    if (entry.value !== undefined) {
      env[entry.name] = entry.value;
      continue;
    }
    const ref = entry.valueFrom?.configMapKeyRef ?? entry.valueFrom?.secretKeyRef;
    const kind = entry.valueFrom?.configMapKeyRef ? 'ConfigMap' : 'Secret';
    if (!ref) {
      problems.push(`${entry.name}: neither a value nor a ConfigMap/Secret key`);
      continue;
    }
    const source = find(objects, kind, ref.name) ?? (kind === 'Secret' ? find(documentedSecrets, 'Secret', ref.name) : undefined);
    // A Secret's data is base64; a ConfigMap's and a Secret's stringData are plain.
    const raw = source?.data?.[ref.key];
    const value = raw === undefined ? source?.stringData?.[ref.key] : kind === 'Secret' ? Buffer.from(raw, 'base64').toString('utf8') : raw;
    if (value === undefined) {
      if (!ref.optional) problems.push(`${entry.name}: ${kind} ${ref.name} has no key ${ref.key}`);
      continue;
    }
    env[entry.name] = value;
  }
  return { env, problems };
}

describe.each(['dev', 'production'])('deploy/k8s/overlays/%s', (overlay) => {
  let objects: K8sObject[];
  let deployments: K8sObject[];
  let documentedSecrets: K8sObject[];
  let namespace: string;

  beforeAll(() => {
    objects = render(`overlays/${overlay}`);
    documentedSecrets = render('base').filter((o) => o.kind === 'Secret');
    deployments = byKind(objects, 'Deployment');
    namespace = deployments[0]?.metadata.namespace ?? '';
  }, RENDER_TIMEOUT_MS);

  const envOf = (deployment: K8sObject) => containerEnv(containerOf(deployment), objects, documentedSecrets).env;

  it('when rendered, then every object is in one namespace and every Hangar process has one Deployment running its own entry point', () => {
    expect(namespace).not.toBe('');
    for (const o of objects) if (o.kind !== 'Namespace') expect(`${o.kind}/${o.metadata.name} in ${o.metadata.namespace}`).toBe(`${o.kind}/${o.metadata.name} in ${namespace}`);
    expect(find(objects, 'Namespace', namespace)).toBeDefined();
    const byName = deployments.filter((d) => d.metadata.name === processOf(d));
    expect(byName.map((d) => d.metadata.name).sort()).toEqual(hangarProcesses());
    // The others run a process in a mode its schema declares, named after that mode.
    for (const d of deployments.filter((x) => !byName.includes(x))) {
      const mode = configLoader(processOf(d))(envOf(d))[`${processOf(d).toUpperCase().replace(/-/g, '_')}_MODE`];
      expect({ name: d.metadata.name, mode }).toEqual({ name: d.metadata.name, mode: d.metadata.name });
    }
    expect(deployments.filter(isWorkersOnly).map((d) => d.metadata.name)).toEqual(['parse-workers']);
  });

  it('when rendered, then every object passes its Kubernetes API schema (kubernetes-models, KEDA, Prometheus Operator)', () => {
    const results = schemaErrors(objects);
    expect(results.length).toBe(objects.length);
    expect(results.filter((r) => r.error !== null)).toEqual([]);
    // The check itself refuses what the API server would.
    const broken = JSON.parse(JSON.stringify(deployments[0])) as K8sObject;
    broken.spec.replicas = 'two';
    expect(schemaErrors([broken])[0]?.error).toMatch(/replicas/);
  });

  it('when rendered, then every container runs the same Hangar image', () => {
    const images = new Set(deployments.map((d) => containerOf(d).image));
    expect(images.size).toBe(1);
    const [image] = [...images] as [string];
    if (overlay === 'production') {
      // Pinned: a version tag or a digest, never a moving tag.
      expect(image).toMatch(/(:v?\d+\.\d+\.\d+[\w.-]*|@sha256:[0-9a-f]{64})$/);
    } else {
      expect(image).toMatch(/:[\w.-]+$/);
    }
  });

  it('when rendered, then every Deployment has startup, readiness and liveness probes on the port its process serves', () => {
    for (const d of deployments) {
      const c = containerOf(d);
      const name = d.metadata.name;
      for (const probe of [c.startupProbe, c.readinessProbe, c.livenessProbe]) expect({ name, probe }).toEqual({ name, probe: expect.any(Object) });
      if (isWorkersOnly(d)) {
        // No gRPC health service in that mode: /healthz on the metrics port (libs/metrics).
        for (const probe of [c.startupProbe, c.readinessProbe, c.livenessProbe]) {
          expect({ name, path: probe?.httpGet?.path, port: portNumber(c, probe?.httpGet?.port ?? 0) }).toEqual({ name, path: '/healthz', port: METRICS_PORT });
        }
      } else if (name === 'gateway') {
        expect(c.readinessProbe?.httpGet?.path).toBe('/api/health');
        expect(c.livenessProbe?.httpGet?.path ?? (c.livenessProbe?.tcpSocket ? 'tcp' : undefined)).toMatch(/^(\/version|tcp)$/);
        for (const probe of [c.startupProbe, c.readinessProbe, c.livenessProbe]) {
          const port = probe?.httpGet?.port ?? probe?.tcpSocket?.port;
          expect({ name, port: port === undefined ? undefined : portNumber(c, port) }).toEqual({ name, port: HTTP_PORT });
        }
      } else {
        // Kubernetes' built-in gRPC probe asks the standard health service.
        for (const probe of [c.startupProbe, c.readinessProbe, c.livenessProbe]) expect({ name, grpc: probe?.grpc?.port }).toEqual({ name, grpc: GRPC_PORT });
      }
    }
  });

  it('when rendered, then each process listens where its probes, ports and Services expect', () => {
    for (const d of deployments) {
      const c = containerOf(d);
      const config = configLoader(processOf(d))(envOf(d));
      const exposed = (c.ports ?? []).map((p) => p.containerPort);
      // Every process serves /metrics on its own port, where the scrape annotations point.
      expect({ name: d.metadata.name, metrics: config.METRICS_PORT, named: namedPorts(c).metrics }).toEqual({ name: d.metadata.name, metrics: METRICS_PORT, named: METRICS_PORT });
      expect(d.spec.template.metadata.annotations?.['prometheus.io/port']).toBe(String(METRICS_PORT));
      if (isWorkersOnly(d)) {
        expect({ mode: config.RELEASES_MODE, exposed }).toEqual({ mode: 'parse-workers', exposed: [METRICS_PORT] });
      } else if (d.metadata.name === 'gateway') {
        expect({ port: config.HANGAR_PORT, host: config.HTTP_HOST }).toEqual({ port: HTTP_PORT, host: '0.0.0.0' });
        expect(exposed).toEqual([HTTP_PORT, METRICS_PORT]);
      } else {
        expect({ name: d.metadata.name, listen: config.GRPC_LISTEN }).toEqual({ name: d.metadata.name, listen: `0.0.0.0:${GRPC_PORT}` });
        expect(exposed).toEqual([GRPC_PORT, METRICS_PORT]);
      }
    }
  });

  it('when rendered, then every Deployment requests and limits cpu and memory, limits at least the requests', () => {
    for (const d of deployments) {
      const { requests = {}, limits = {} } = containerOf(d).resources ?? {};
      for (const resource of ['cpu', 'memory']) {
        expect({ name: d.metadata.name, resource, request: requests[resource] !== undefined, limit: limits[resource] !== undefined }).toEqual({
          name: d.metadata.name,
          resource,
          request: true,
          limit: true,
        });
        expect(quantity(limits[resource])).toBeGreaterThanOrEqual(quantity(requests[resource]));
      }
    }
  });

  it('when rendered, then every pod runs as the non-root node user with a read-only root filesystem, no privileges and a writable /tmp', () => {
    for (const d of deployments) {
      const pod = d.spec.template.spec;
      const c = containerOf(d);
      // The container's settings win over the pod's.
      const effective = { ...pod.securityContext, ...c.securityContext };
      expect({ name: d.metadata.name, ...effective }).toMatchObject({
        name: d.metadata.name,
        runAsNonRoot: true,
        runAsUser: NODE_UID,
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(effective.privileged).not.toBe(true);
      const tmp = c.volumeMounts?.find((m) => m.mountPath === '/tmp');
      expect(pod.volumes?.find((v: { name: string }) => v.name === tmp?.name)?.emptyDir).toBeDefined();
      expect(pod.automountServiceAccountToken).toBe(false);
      // Service links would inject e.g. HANGAR_PORT=tcp://… from a Service named "hangar".
      expect(pod.enableServiceLinks).toBe(false);
    }
  });

  it('when rendered, then every termination grace period outlasts the preStop pause plus the process own SHUTDOWN_TIMEOUT_MS', () => {
    for (const d of deployments) {
      const c = containerOf(d);
      const config = configLoader(processOf(d))(envOf(d));
      const preStop = c.lifecycle?.preStop;
      const pause = preStop?.sleep?.seconds ?? (preStop?.exec?.command[0] === 'sleep' ? Number(preStop.exec.command[1]) : 0);
      const grace = d.spec.template.spec.terminationGracePeriodSeconds ?? 30;
      expect(envOf(d).SHUTDOWN_TIMEOUT_MS).toBeDefined(); // set explicitly, not left to the default
      expect({ name: d.metadata.name, grace: grace > pause + Number(config.SHUTDOWN_TIMEOUT_MS) / 1000 }).toEqual({ name: d.metadata.name, grace: true });
    }
  });

  it("when rendered, then every environment variable is one the process's schema declares, every reference resolves, and the result passes its load…Config", () => {
    for (const d of deployments) {
      const name = d.metadata.name;
      const { env, problems } = containerEnv(containerOf(d), objects, documentedSecrets);
      expect({ name, problems }).toEqual({ name, problems: [] });
      expect({ name, invalid: configProblems(configLoader(processOf(d)), env) }).toEqual({ name, invalid: [] });
      expect({ name, undeclared: undeclaredNames(processOf(d), env) }).toEqual({ name, undeclared: [] });
    }
  });

  it('when rendered, then every process that connects to NATS keeps 3 copies of the streams and KV buckets it creates (NATS_REPLICAS), so losing a NATS node loses nothing', () => {
    const withNats = deployments.filter((d) => envOf(d).NATS_URL);
    expect(withNats.length).toBeGreaterThan(0);
    for (const d of withNats) {
      const config = configLoader(processOf(d))(envOf(d));
      expect({ name: d.metadata.name, replicas: config.NATS_REPLICAS }).toEqual({ name: d.metadata.name, replicas: 3 });
    }
  });

  it('when rendered, then every Service selects exactly one Deployment and targets a port its container exposes', () => {
    const services = byKind(objects, 'Service');
    expect(services.length).toBeGreaterThan(0);
    for (const s of services) {
      const matching = deployments.filter((d) => selects({ matchLabels: s.spec.selector }, podLabels(d)));
      expect({ service: s.metadata.name, deployments: matching.map((d) => d.metadata.name) }).toEqual({ service: s.metadata.name, deployments: [s.metadata.name] });
      const c = containerOf(matching[0]!);
      for (const port of s.spec.ports as { targetPort?: number | string; port: number }[]) {
        const target = portNumber(c, port.targetPort ?? port.port);
        expect({ service: s.metadata.name, exposed: (c.ports ?? []).some((p) => p.containerPort === target) }).toEqual({ service: s.metadata.name, exposed: true });
      }
    }
    // Deployment selectors select their own pods.
    for (const d of deployments) expect(selects(d.spec.selector, podLabels(d))).toBe(true);
  });

  it('when rendered, then every gRPC target a process is configured with is a Service of the render on a port it serves', () => {
    let targets = 0;
    for (const d of deployments) {
      for (const dep of dependenciesOf(configLoader(processOf(d))(envOf(d)) as Env)) {
        if (!dep.variable.endsWith('_GRPC_TARGET')) continue;
        targets++;
        const service = find(objects, 'Service', dep.host);
        expect({ from: d.metadata.name, target: `${dep.host}:${dep.port}`, served: service?.spec.ports.some((p: { port: number }) => p.port === dep.port) ?? false }).toEqual({
          from: d.metadata.name,
          target: `${dep.host}:${dep.port}`,
          served: true,
        });
      }
    }
    expect(targets).toBeGreaterThanOrEqual(4);
  });

  describe('network policies', () => {
    const endpointOf = (d: K8sObject): Endpoint => ({ labels: podLabels(d), namespace, namedPorts: namedPorts(containerOf(d)) });
    const deployment = (name: string) => find(objects, 'Deployment', name)!;
    const outside = (host: string): Endpoint => {
      // host.<namespace>.svc[.cluster.local] is a pod of an operator's namespace; anything else is outside the cluster.
      const ns = /^[^.]+\.([^.]+)\.svc(\.|$)/.exec(host)?.[1];
      return ns ? { labels: {}, namespace: ns } : { labels: {} };
    };

    it('when a process is configured to call a service over gRPC, then exactly those calls get through (the gateway to all, the rest as configured)', () => {
      for (const from of deployments) {
        // The workers-only mode makes no gRPC call, whatever its schema's defaults
        // name (tests/e2e/parse-workers-mode.test.ts sees it start no gRPC client).
        const configured = isWorkersOnly(from) ? [] : dependenciesOf(configLoader(processOf(from))(envOf(from)) as Env);
        const targets = new Set(configured.filter((x) => x.variable.endsWith('_GRPC_TARGET')).map((x) => x.host));
        for (const to of deployments) {
          if (to === from || to.metadata.name === 'gateway') continue;
          const allowed = connectionAllowed(objects, endpointOf(from), endpointOf(to), GRPC_PORT);
          expect({ from: from.metadata.name, to: to.metadata.name, allowed }).toEqual({ from: from.metadata.name, to: to.metadata.name, allowed: targets.has(to.metadata.name) });
        }
      }
      expect(connectionAllowed(objects, endpointOf(deployment('gateway')), endpointOf(deployment('users')), GRPC_PORT)).toBe(true);
    });

    it('when something that is not the gateway or a configured caller knocks on a gRPC port, then it is refused', () => {
      const strangers: Endpoint[] = [
        { labels: { app: 'other' }, namespace },
        { labels: { 'app.kubernetes.io/name': 'gateway', 'app.kubernetes.io/part-of': 'hangar' }, namespace: 'elsewhere' },
        { labels: {} },
      ];
      for (const d of deployments.filter((x) => x.metadata.name !== 'gateway')) {
        for (const stranger of strangers) expect({ to: d.metadata.name, stranger, allowed: connectionAllowed(objects, stranger, endpointOf(d), GRPC_PORT) }).toEqual({ to: d.metadata.name, stranger, allowed: false });
      }
    });

    it('when a client anywhere calls the gateway on 8080, then it gets through, and on any other port it does not', () => {
      const gateway = endpointOf(deployment('gateway'));
      for (const client of [{ labels: {} }, { labels: { 'app.kubernetes.io/name': 'ingress-nginx' }, namespace: 'ingress-nginx' }] as Endpoint[]) {
        expect(connectionAllowed(objects, client, gateway, HTTP_PORT)).toBe(true);
        expect(connectionAllowed(objects, client, gateway, GRPC_PORT)).toBe(false);
      }
    });

    it('when Prometheus in the monitoring namespace scrapes a metrics port, then it gets through, and nothing else does', () => {
      const prometheus: Endpoint = { labels: { 'app.kubernetes.io/name': 'prometheus' }, namespace: 'monitoring' };
      for (const d of deployments) {
        const target = endpointOf(d);
        expect({ name: d.metadata.name, allowed: connectionAllowed(objects, prometheus, target, METRICS_PORT) }).toEqual({ name: d.metadata.name, allowed: true });
        for (const stranger of [{ labels: {} }, { labels: { app: 'other' }, namespace }] as Endpoint[]) {
          expect({ name: d.metadata.name, stranger, allowed: connectionAllowed(objects, stranger, target, METRICS_PORT) }).toEqual({ name: d.metadata.name, stranger, allowed: false });
        }
        if (d.metadata.name !== 'gateway') expect(connectionAllowed(objects, prometheus, target, GRPC_PORT)).toBe(false);
      }
    });

    it('when a process is configured with MongoDB, NATS or S3, then it can reach that port and DNS, and no process reaches a dependency it is not configured for', () => {
      const dependencyPorts = new Map<string, number>();
      for (const d of deployments) {
        for (const dep of dependenciesOf(envOf(d)).filter((x) => !x.variable.endsWith('_GRPC_TARGET'))) dependencyPorts.set(dep.variable, dep.port);
      }
      expect([...dependencyPorts.keys()].sort()).toEqual(['MONGO_URL', 'NATS_URL', 'S3_ENDPOINT']);
      for (const d of deployments) {
        const source = endpointOf(d);
        const dns = { labels: { 'k8s-app': 'kube-dns' }, namespace: 'kube-system' };
        expect({ name: d.metadata.name, udp: connectionAllowed(objects, source, dns, 53, 'UDP'), tcp: connectionAllowed(objects, source, dns, 53, 'TCP') }).toEqual({
          name: d.metadata.name,
          udp: true,
          tcp: true,
        });
        const configured = dependenciesOf(envOf(d)).filter((x) => !x.variable.endsWith('_GRPC_TARGET'));
        for (const dep of configured) {
          expect({ name: d.metadata.name, dep, allowed: connectionAllowed(objects, source, outside(dep.host), dep.port) }).toEqual({ name: d.metadata.name, dep, allowed: true });
        }
        for (const [variable, port] of dependencyPorts) {
          if (configured.some((x) => x.variable === variable)) continue;
          expect({ name: d.metadata.name, variable, allowed: connectionAllowed(objects, source, { labels: {} }, port) }).toEqual({ name: d.metadata.name, variable, allowed: false });
        }
      }
    });
  });

  describe('the nightly backup', () => {
    const cronJob = () => find(objects, 'CronJob', 'backup')!;
    /** The CronJob's pod template as a Deployment holds one, for the helpers above. */
    const backupPod = () => ({ kind: 'Job', metadata: cronJob().metadata, spec: { template: cronJob().spec.jobTemplate.spec.template } }) as K8sObject;
    // The tool's own settings loader, as configLoader reads a service's (config-schemas.ts).
    const loadBackup: ConfigLoader = (env) =>
      (require(path.join(REPO_ROOT, 'libs', 'backup', 'src', 'cli.ts')) as { loadBackupConfig: ConfigLoader }).loadBackupConfig(env);

    it('when rendered, then a CronJob runs the backup tool once a day, one run at a time, into a claimed volume, keeping the newest complete backups', () => {
      expect(cronJob()).toBeDefined();
      const spec = cronJob().spec;
      expect(spec.schedule).toMatch(/^\d{1,2} \d{1,2} \* \* \*$/);
      expect(spec.concurrencyPolicy).toBe('Forbid');
      const c = containerOf(backupPod());
      const [node, script, command, folder, keepFlag, keep] = c.command!;
      expect([node, script, command, keepFlag]).toEqual(['node', 'libs/backup/dist/cli.js', 'backup', '--keep']);
      expect(Number(keep)).toBeGreaterThanOrEqual(1);
      // The script the image runs is the tool's build (the Dockerfile builds every workspace).
      expect(fs.existsSync(path.join(REPO_ROOT, script!.replace('/dist/', '/src/').replace(/\.js$/, '.ts')))).toBe(true);
      const pod = backupPod().spec.template.spec;
      const mount = c.volumeMounts!.find((m) => m.mountPath === folder);
      const claim = pod.volumes.find((v: { name: string }) => v.name === mount?.name)?.persistentVolumeClaim?.claimName;
      expect(find(objects, 'PersistentVolumeClaim', claim)).toBeDefined();
      expect(pod.restartPolicy).toBe('Never');
      expect(c.image).toBe(containerOf(deployments[0]!).image);
    });

    it("when rendered, then its environment is the tool's settings only, every reference resolves, and the tool's schema accepts it", () => {
      const { env, problems } = containerEnv(containerOf(backupPod()), objects, documentedSecrets);
      expect(problems).toEqual([]);
      expect(configProblems(loadBackup, env)).toEqual([]);
      expect(Object.keys(env).filter((name) => !declares(loadBackup, env, name))).toEqual([]);
      // The same database and bucket as the services it backs up.
      const releases = envOf(find(objects, 'Deployment', 'releases')!);
      for (const name of ['MONGO_URL', 'S3_ENDPOINT', 'S3_BUCKET']) expect({ name, value: env[name] }).toEqual({ name, value: releases[name] });
    });

    it('when rendered, then its pod runs as the non-root node user with a read-only root filesystem, and reaches MongoDB, S3 and DNS but not NATS or the services', () => {
      const pod = backupPod().spec.template.spec;
      const c = containerOf(backupPod());
      expect({ ...pod.securityContext, ...c.securityContext }).toMatchObject({
        runAsNonRoot: true,
        runAsUser: NODE_UID,
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      });
      expect(pod.automountServiceAccountToken).toBe(false);
      const source: Endpoint = { labels: podLabels(backupPod()), namespace };
      const { env } = containerEnv(c, objects, documentedSecrets);
      for (const dep of dependenciesOf(env)) expect({ dep, allowed: connectionAllowed(objects, source, { labels: {} }, dep.port) }).toEqual({ dep, allowed: true });
      expect(connectionAllowed(objects, source, { labels: { 'k8s-app': 'kube-dns' }, namespace: 'kube-system' }, 53, 'UDP')).toBe(true);
      expect(connectionAllowed(objects, source, { labels: {} }, 4222)).toBe(false);
      const users = find(objects, 'Deployment', 'users')!;
      expect(connectionAllowed(objects, source, { labels: podLabels(users), namespace }, GRPC_PORT)).toBe(false);
    });
  });

  it('when a process is configured to export traces, then it reaches the collector on that port and nothing else on it', () => {
    for (const d of deployments) {
      const endpoint = envOf(d).OTEL_EXPORTER_OTLP_ENDPOINT;
      expect({ name: d.metadata.name, endpoint: Boolean(endpoint) }).toEqual({ name: d.metadata.name, endpoint: true });
      const url = new URL(endpoint!);
      const port = Number(url.port || 80);
      const ns = /^[^.]+\.([^.]+)\.svc(\.|$)/.exec(url.hostname)?.[1];
      const collector: Endpoint = { labels: { 'app.kubernetes.io/name': 'opentelemetry-collector' }, ...(ns ? { namespace: ns } : {}) };
      const source: Endpoint = { labels: podLabels(d), namespace, namedPorts: namedPorts(containerOf(d)) };
      expect({ name: d.metadata.name, allowed: connectionAllowed(objects, source, collector, port) }).toEqual({ name: d.metadata.name, allowed: true });
      expect({ name: d.metadata.name, outside: connectionAllowed(objects, source, { labels: {} }, port) }).toEqual({ name: d.metadata.name, outside: false });
    }
  });

  it('when a node is drained, then every Deployment has a disruption budget that lets one pod go and no more', () => {
    const budgets = byKind(objects, 'PodDisruptionBudget');
    for (const d of deployments) {
      const covering = budgets.filter((b) => selects(b.spec.selector, podLabels(d)));
      expect({ name: d.metadata.name, budgets: covering.length }).toEqual({ name: d.metadata.name, budgets: 1 });
      const budget = covering[0]!.spec;
      // minAvailable equal to the replicas would block every drain.
      expect(budget.maxUnavailable ?? 0).toBeGreaterThanOrEqual(budget.minAvailable === undefined ? 1 : 0);
      if (budget.minAvailable !== undefined) expect(budget.minAvailable).toBeLessThan(d.spec.replicas ?? 1);
    }
  });

  if (overlay === 'production') {
    it('when in production, then every Deployment has exactly one scaling rule (an HPA or a KEDA ScaledObject) from at least 2 pods, and no replicas field', () => {
      const rules = [
        ...byKind(objects, 'HorizontalPodAutoscaler').map((h) => ({ kind: 'HPA', target: h.spec.scaleTargetRef.name as string, min: h.spec.minReplicas, max: h.spec.maxReplicas })),
        ...byKind(objects, 'ScaledObject').map((o) => ({ kind: 'ScaledObject', target: o.spec.scaleTargetRef.name as string, min: o.spec.minReplicaCount, max: o.spec.maxReplicaCount })),
      ];
      for (const rule of rules) {
        expect(find(objects, 'Deployment', rule.target)).toBeDefined();
        expect({ ...rule, minAtLeast2: rule.min >= 2, maxAboveMin: rule.max > rule.min }).toEqual({ ...rule, minAtLeast2: true, maxAboveMin: true });
      }
      for (const d of deployments) {
        const name = d.metadata.name;
        expect({ name, rules: rules.filter((r) => r.target === name).length }).toEqual({ name, rules: 1 });
        // An autoscaled Deployment has no replicas: each apply would reset the count.
        expect({ name, replicas: d.spec.replicas }).toEqual({ name, replicas: undefined });
        // A CPU utilization target means something only against a request.
        expect({ name, cpuRequest: containerOf(d).resources?.requests?.cpu !== undefined }).toEqual({ name, cpuRequest: true });
      }
    });

    it('when in production, then the parse workers scale on their backlog, one step per PARSE_WORKER_CONCURRENCY waiting, and releases leaves parsing to them', () => {
      const scaled = find(objects, 'ScaledObject', 'parse-workers')!;
      expect(scaled.spec.scaleTargetRef.name).toBe('parse-workers');
      const backlog = (scaled.spec.triggers as { type: string; metadata: Record<string, string> }[]).find((t) => t.type === 'prometheus');
      expect(backlog?.metadata.query).toMatch(/^sum\(hangar_package_parse_queue_depth\{namespace="hangar"\}\)$/);
      expect(namespace).toBe('hangar');
      const workers = find(objects, 'Deployment', 'parse-workers')!;
      expect(backlog?.metadata.threshold).toBe(String(configLoader('releases')(envOf(workers)).PARSE_WORKER_CONCURRENCY));
      expect(configLoader('releases')(envOf(find(objects, 'Deployment', 'releases')!)).PARSE_WORKER_ENABLED).toBe(false);
    });

    it('when in production, then no Secret is rendered: the credentials are created in the cluster, not kept in the repository', () => {
      expect(byKind(objects, 'Secret')).toEqual([]);
      expect(documentedSecrets.map((s) => s.metadata.name)).toEqual(['hangar-secrets']);
    });

    it('when in production, then the Ingress sends traffic to the gateway Service on a port it has', () => {
      for (const ingress of byKind(objects, 'Ingress')) {
        for (const rule of ingress.spec.rules) {
          for (const p of rule.http.paths) {
            const service = find(objects, 'Service', p.backend.service.name);
            expect(service?.metadata.name).toBe('gateway');
            expect(service!.spec.ports.some((port: { name: string; port: number }) => port.name === p.backend.service.port.name || port.port === p.backend.service.port.number)).toBe(true);
          }
        }
      }
    });
  } else {
    it('when in dev, then every Deployment runs one pod with no autoscaler, within small limits', () => {
      expect(byKind(objects, 'HorizontalPodAutoscaler')).toEqual([]);
      expect(byKind(objects, 'ScaledObject')).toEqual([]);
      for (const d of deployments) {
        expect({ name: d.metadata.name, replicas: d.spec.replicas }).toEqual({ name: d.metadata.name, replicas: 1 });
        expect(quantity(containerOf(d).resources?.limits?.memory)).toBeLessThanOrEqual(512 * 2 ** 20);
      }
    });
  }
});
