import { Server, createServer } from 'node:http';
import { type AddressInfo, isIP } from 'node:net';
import type { Metrics } from './metrics';

export interface MetricsServer {
  /** The bound port; undefined when metrics are off (METRICS_PORT=0). */
  port: number | undefined;
  stop(): Promise<void>;
}

/**
 * Serves `GET /metrics` on its own port, apart from the service's gRPC or
 * HTTP port, so scraping needs no token and the NetworkPolicies can open it
 * to the monitoring namespace only. Port 0 turns it off.
 */
export interface MetricsServerOptions {
  port: number;
  /** Default: METRICS_HOST (metricsHostSetting). */
  host?: string;
  /**
   * Answers `GET /healthz` (200 when true, 503 otherwise) for a process that
   * has no gRPC health service to probe (the releases parse-workers mode).
   * Without it /healthz is 404.
   */
  healthy?: () => boolean;
}

/**
 * `METRICS_HOST`: the address `/metrics` listens on — every interface (0.0.0.0) where
 * Prometheus scrapes the pod (the image, deploy/k8s), 127.0.0.1 under `npm run up` (the
 * launcher sets it). Read here, so every process that serves metrics honours it alike.
 */
export function metricsHostSetting(env: NodeJS.ProcessEnv = process.env): string {
  const raw = env.METRICS_HOST?.trim();
  if (!raw) return '0.0.0.0';
  if (!isIP(raw) && !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(raw)) {
    throw new Error(`METRICS_HOST must be an IP address or a host name (got "${raw}")`);
  }
  return raw;
}

export async function serveMetrics(metrics: Metrics, { port, host, healthy }: MetricsServerOptions): Promise<MetricsServer> {
  if (port === 0) return { port: undefined, stop: async () => undefined };
  host ??= metricsHostSetting();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/healthz' && healthy) {
      const ok = healthy();
      res.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : ok ? 'ok\n' : 'not ready\n');
      return;
    }
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: metrics are at /metrics\n');
      return;
    }
    metrics.exposition().then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics collection failed: ${err instanceof Error ? err.message : String(err)}\n`);
      },
    );
  });
  // Scrapes are short: do not let a keep-alive scraper hold shutdown up.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
