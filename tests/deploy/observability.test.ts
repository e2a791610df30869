import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { safeLoad } from 'js-yaml';
import { Metrics } from '@hangar/metrics';
// The file that names every hangar_* series (not the whole lib: it also has the server).
import * as series from '../../libs/metrics/src/series';
import { REPO_ROOT } from './config-schemas';
import { K8sObject, render } from './kustomize';

/**
 * The dashboard, the alerting rules and the KEDA query, checked against
 * promtool and against the code: every series they name is one some process
 * exports, so a renamed metric breaks this test, not a dashboard in production.
 */

const OBSERVABILITY = path.join(REPO_ROOT, 'deploy', 'observability');
const RULES_FILE = path.join(OBSERVABILITY, 'prometheus', 'alerts.yml');
const RULES_TESTS = path.join(OBSERVABILITY, 'prometheus', 'alerts.test.yml');
const DASHBOARD = path.join(OBSERVABILITY, 'grafana', 'dashboards', 'hangar.json');
const RENDER_TIMEOUT_MS = 600_000;

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface RuleGroup {
  name: string;
  rules: Rule[];
}

const plainGroups = () => (safeLoad(fs.readFileSync(RULES_FILE, 'utf8')) as { groups: RuleGroup[] }).groups;
const promtool = (...args: string[]) => execFileSync('promtool', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], cwd: REPO_ROOT });

/** Every `expr` in a Grafana dashboard, panels nested in rows included. */
function dashboardExprs(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(dashboardExprs);
  if (node && typeof node === 'object') {
    return Object.entries(node).flatMap(([key, value]) => (key === 'expr' && typeof value === 'string' ? [value] : dashboardExprs(value)));
  }
  return [];
}

/**
 * Metric names in a PromQL expression. Hangar's series and the Node process
 * metrics share prefixes (hangar_, process_, nodejs_); anything else that looks
 * like a metric (a *_total, *_seconds, *_bytes… name) is reported too, so an
 * expression cannot name a series from elsewhere unnoticed.
 */
function metricNames(expr: string): string[] {
  const withoutStrings = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const names = new Set<string>();
  for (const [name] of withoutStrings.matchAll(/\b[a-zA-Z_:][a-zA-Z0-9_:]*\b/g)) {
    if (/^(hangar|process|nodejs)_/.test(name!) || /_(total|seconds|bytes|bucket|count|sum|depth|pending)$/.test(name!)) names.add(name!);
  }
  return [...names];
}

/**
 * What the processes export: the registry of a process after every series
 * function of @hangar/metrics is asked for, with histogram sample names;
 * plus, for each hangar_* series, whether code outside libs/metrics asks for
 * it (a series defined but recorded by nobody is not exported by anybody).
 */
function exportedSeries(): { names: Set<string>; unused: string[] } {
  const functions = Object.entries(series).filter(([, value]) => typeof value === 'function');
  const sources = sourceFiles().map((file) => fs.readFileSync(file, 'utf8'));
  const names = new Set<string>();
  const unused: string[] = [];
  const registered = (metrics: Metrics) =>
    metrics.registry.getMetricsAsArray().flatMap((m) => {
      const type = (m as unknown as { type?: string }).type ?? '';
      return type === 'histogram' ? [m.name, `${m.name}_bucket`, `${m.name}_sum`, `${m.name}_count`] : [m.name];
    });
  for (const name of registered(new Metrics())) names.add(name);
  for (const [fn, create] of functions) {
    const metrics = new Metrics({ defaultMetrics: false });
    (create as (m: Metrics) => unknown)(metrics);
    const own = registered(metrics);
    if (!sources.some((text) => new RegExp(`\\b${fn}\\(`).test(text))) unused.push(`${fn} (${own[0]})`);
    else for (const name of own) names.add(name);
  }
  return { names, unused };
}

/** Non-test TypeScript of the services and of every lib but metrics. */
function sourceFiles(): string[] {
  const roots = [
    ...fs.readdirSync(path.join(REPO_ROOT, 'services')).map((s) => path.join(REPO_ROOT, 'services', s, 'src')),
    ...fs.readdirSync(path.join(REPO_ROOT, 'libs')).filter((l) => l !== 'metrics').map((l) => path.join(REPO_ROOT, 'libs', l, 'src')),
  ].filter((dir) => fs.existsSync(dir));
  return roots.flatMap((dir) =>
    fs
      .readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
      .map((f) => path.join(dir, f)),
  );
}

describe('alerting rules', () => {
  let rendered: K8sObject[];
  beforeAll(() => {
    rendered = render('overlays/production');
  }, RENDER_TIMEOUT_MS);

  it('when promtool checks the plain rules file, then it accepts every rule', () => {
    expect(promtool('check', 'rules', RULES_FILE)).toMatch(new RegExp(`SUCCESS: ${plainGroups().flatMap((g) => g.rules).length} rules found`));
  });

  it("when promtool runs the rules' unit tests, then they pass, and every alert has a case where it fires", () => {
    promtool('test', 'rules', RULES_TESTS);
    const tests = (safeLoad(fs.readFileSync(RULES_TESTS, 'utf8')) as { tests: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }[] }).tests;
    const fired = new Set(tests.flatMap((t) => t.alert_rule_test ?? []).filter((a) => a.exp_alerts.length > 0).map((a) => a.alertname));
    const alerts = plainGroups().flatMap((g) => g.rules.map((r) => r.alert));
    expect(alerts.length).toBeGreaterThanOrEqual(10);
    expect(alerts.filter((a) => !fired.has(a))).toEqual([]);
  });

  it('when a unit test expects what the rules do not do, then promtool fails it (the test above can fail)', () => {
    // .hangar/ exists once anything has run; a fresh clone has none yet.
    fs.mkdirSync(path.join(REPO_ROOT, '.hangar'), { recursive: true });
    const dir = fs.mkdtempSync(path.join(REPO_ROOT, '.hangar', 'promtool-'));
    try {
      fs.copyFileSync(RULES_FILE, path.join(dir, 'alerts.yml'));
      const wrong = fs.readFileSync(RULES_TESTS, 'utf8').replace('summary: "25 parse requests wait for a worker"', 'summary: "24 parse requests wait for a worker"');
      fs.writeFileSync(path.join(dir, 'alerts.test.yml'), wrong);
      expect(() => promtool('test', 'rules', path.join(dir, 'alerts.test.yml'))).toThrow();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when deployed, then the PrometheusRule holds exactly the rules of the plain file', () => {
    const rules = rendered.filter((o) => o.kind === 'PrometheusRule');
    expect(rules.map((r) => r.metadata.name)).toEqual(['hangar']);
    expect(rules[0]!.spec.groups).toEqual(plainGroups());
  });

  it('when an alert fires, then it says how bad (severity) and what to look at (summary, description)', () => {
    for (const rule of plainGroups().flatMap((g) => g.rules)) {
      expect({ alert: rule.alert, severity: rule.labels?.severity, summary: Boolean(rule.annotations?.summary), description: Boolean(rule.annotations?.description) }).toEqual({
        alert: rule.alert,
        severity: expect.stringMatching(/^(warning|critical)$/),
        summary: true,
        description: true,
      });
      expect(rule.alert).toMatch(/^Hangar[A-Z]\w+$/);
    }
  });
});

describe('series named by the dashboard, the alerts and the autoscaler', () => {
  const { names: exported, unused } = exportedSeries();
  const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, 'utf8')) as { uid: string; panels: { type: string; title: string; targets?: { expr: string }[] }[] };
  let scalerQueries: string[];
  beforeAll(() => {
    scalerQueries = render('overlays/production')
      .filter((o) => o.kind === 'ScaledObject')
      .flatMap((o) => (o.spec.triggers as { type: string; metadata: { query?: string } }[]).filter((t) => t.type === 'prometheus').map((t) => t.metadata.query!));
  }, RENDER_TIMEOUT_MS);

  it('when the code defines a hangar_* series, then some service or lib records it', () => {
    expect(unused).toEqual([]);
    expect(exported.has('hangar_http_requests_total')).toBe(true);
    expect(exported.has('hangar_package_parse_seconds_bucket')).toBe(true);
    // The name reader sees a name that is not exported.
    expect(metricNames('sum(rate(hangar_not_a_series_total[5m])) by (route)')).toEqual(['hangar_not_a_series_total']);
  });

  it('when the dashboard, the alerting rules or the KEDA trigger query a series, then a process exports it', () => {
    const queries = [
      ...dashboardExprs(dashboard).map((expr) => ({ from: 'dashboard', expr })),
      ...plainGroups().flatMap((g) => g.rules.map((r) => ({ from: `rule ${r.alert}`, expr: r.expr }))),
      ...scalerQueries.map((expr) => ({ from: 'ScaledObject', expr })),
    ];
    expect(queries.length).toBeGreaterThan(30);
    for (const { from, expr } of queries) {
      const names = metricNames(expr);
      expect({ from, expr, names: names.length > 0 }).toEqual({ from, expr, names: true });
      expect({ from, expr, unknown: names.filter((n) => !exported.has(n)) }).toEqual({ from, expr, unknown: [] });
    }
  });

  it('when the dashboard is opened, then it shows each thing operators asked for', () => {
    const exprs = dashboardExprs(dashboard).join('\n');
    const wanted: [string, RegExp][] = [
      ['HTTP rate, errors and duration per route', /hangar_http_requests_total[\s\S]*by \(method, route[\s\S]*hangar_http_request_duration_seconds_bucket/],
      ['gRPC rate, errors and duration per method', /hangar_grpc_server_handled_total[\s\S]*hangar_grpc_server_handling_seconds_bucket/],
      ['upload throughput', /rate\(hangar_upload_bytes_total/],
      ['parse latency', /hangar_package_parse_seconds_bucket/],
      ['parse queue depth', /hangar_package_parse_queue_depth/],
      ['outbox lag', /hangar_outbox_lag_seconds_bucket/],
      ['webhook failures', /hangar_webhook_deliveries_total/],
      ['S3 errors', /hangar_storage_errors_total/],
      ['database errors', /hangar_database_errors_total/],
    ];
    for (const [what, pattern] of wanted) expect({ what, shown: pattern.test(exprs) }).toEqual({ what, shown: true });
    // Every panel reads the one datasource variable, so it works with any Prometheus.
    for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) expect({ panel: panel.title, datasource: (panel as { datasource?: { uid: string } }).datasource?.uid }).toEqual({ panel: panel.title, datasource: '${datasource}' });
  });
});
