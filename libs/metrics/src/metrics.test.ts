import { Metrics } from './metrics';
import { eventConsumerMetrics, uploadBytesCounter, webhookDeliveriesCounter } from './series';
import { metricsHostSetting, serveMetrics } from './server';

describe('metrics', () => {
  it('when a series is asked for twice, then both callers share it; a name reused as another type is refused', async () => {
    const metrics = new Metrics({ defaultMetrics: false });
    uploadBytesCounter(metrics).inc({ kind: 'package' }, 10);
    uploadBytesCounter(metrics).inc({ kind: 'package' }, 5);
    webhookDeliveriesCounter(metrics).inc({ outcome: 'success' });
    expect(await metrics.registry.metrics()).toContain('hangar_upload_bytes_total{kind="package"} 15');
    expect(() => metrics.gauge('hangar_upload_bytes_total', 'x', [])).toThrow(/another type/);
    expect(eventConsumerMetrics(metrics).pending).toBe(eventConsumerMetrics(metrics).pending);
  });

  it('when two registries exist in one process, then they do not see each other', async () => {
    const a = new Metrics({ defaultMetrics: false });
    const b = new Metrics({ defaultMetrics: false });
    webhookDeliveriesCounter(a).inc({ outcome: 'failure' });
    expect(await b.registry.metrics()).not.toContain('hangar_webhook_deliveries_total{');
  });

  it('when served, then GET /metrics answers the exposition with process metrics and other paths 404; port 0 serves nothing', async () => {
    const metrics = new Metrics();
    uploadBytesCounter(metrics).inc({ kind: 'debug_file' }, 3);
    const server = await serveMetrics(metrics, { port: 0 });
    expect(server.port).toBeUndefined();
    await server.stop();

    const running = await serveMetrics(metrics, { port: await findPort(), host: '127.0.0.1' });
    try {
      const res = await fetch(`http://127.0.0.1:${running.port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await res.text();
      expect(text).toContain('hangar_upload_bytes_total{kind="debug_file"} 3');
      expect(text).toContain('process_cpu_user_seconds_total');
      expect((await fetch(`http://127.0.0.1:${running.port}/`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${running.port}/metrics`, { method: 'POST' })).status).toBe(405);
    } finally {
      await running.stop();
    }
  });

  it('when given a health check, then GET /healthz answers 200 while it holds and 503 when not; without one /healthz is 404', async () => {
    let ok = true;
    const running = await serveMetrics(new Metrics({ defaultMetrics: false }), { port: await findPort(), host: '127.0.0.1', healthy: () => ok });
    const plain = await serveMetrics(new Metrics({ defaultMetrics: false }), { port: await findPort(), host: '127.0.0.1' });
    try {
      expect((await fetch(`http://127.0.0.1:${running.port}/healthz`)).status).toBe(200);
      ok = false;
      expect((await fetch(`http://127.0.0.1:${running.port}/healthz`)).status).toBe(503);
      expect((await fetch(`http://127.0.0.1:${plain.port}/healthz`)).status).toBe(404);
    } finally {
      await running.stop();
      await plain.stop();
    }
  });
});

async function findPort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

describe('METRICS_HOST', () => {
  it('when set, then /metrics listens there; unset, on every interface; a bad value is refused', () => {
    expect(metricsHostSetting({})).toBe('0.0.0.0');
    expect(metricsHostSetting({ METRICS_HOST: '127.0.0.1' })).toBe('127.0.0.1');
    expect(metricsHostSetting({ METRICS_HOST: '::1' })).toBe('::1');
    expect(metricsHostSetting({ METRICS_HOST: 'localhost' })).toBe('localhost');
    expect(() => metricsHostSetting({ METRICS_HOST: 'http://x/' })).toThrow(/METRICS_HOST/);
  });
});
