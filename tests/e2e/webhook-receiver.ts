import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually as waitUntil } from '@hangar/testing';

export interface ReceivedCall {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A webhook receiver on 127.0.0.1 for the end-to-end suites: records every
 * call, answers from a per-path plan of statuses (then 200), optionally after
 * a delay, and verifies signatures the way docs/events.md tells receivers to.
 */
export class WebhookReceiver {
  readonly calls: ReceivedCall[] = [];
  private readonly plans = new Map<string, number[]>();
  /** Delay before answering, per path. */
  readonly delays = new Map<string, number>();
  port = 0;
  private readonly server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const path = req.url ?? '/';
      this.calls.push({ path, headers: req.headers, body, at: Date.now() });
      const plan = this.plans.get(path);
      const status = plan && plan.length > 0 ? plan.shift()! : 200;
      setTimeout(() => {
        res.statusCode = status;
        res.end();
      }, this.delays.get(path) ?? 0);
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  plan(path: string, statuses: number[]): void {
    this.plans.set(path, [...statuses]);
  }

  on(path: string): ReceivedCall[] {
    return this.calls.filter((c) => c.path === path);
  }

  async waitFor(path: string, count: number, timeoutMs = 30_000): Promise<ReceivedCall[]> {
    await waitUntil(() => this.on(path).length >= count, { timeoutMs, what: `${count} webhook calls to ${path}`, explain: () => `${this.on(path).length} arrived` });
    return this.on(path);
  }
}

/** What a receiver does: HMAC-SHA256 of the raw body with the secret, compared in constant time. */
export function signatureValid(call: ReceivedCall, secret: string): boolean {
  const expected = `sha256=${createHmac('sha256', secret).update(call.body, 'utf8').digest('hex')}`;
  const got = String(call.headers['x-hangar-signature-256'] ?? '');
  return got.length === expected.length && timingSafeEqual(Buffer.from(got), Buffer.from(expected));
}

/** `eventually` of @hangar/testing with this suite's older arguments (a time limit, what is waited for). */
export function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 30_000, what = 'condition'): Promise<void> {
  // Most checks here are HTTP requests: read every 100 ms, not 25, on a machine the system under test shares.
  return waitUntil(check, { timeoutMs, what, stepMs: 100 });
}
