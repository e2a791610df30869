import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { currentTraceHeaders, withoutAutoSpans } from '@hangar/telemetry';
import { ResolvedAddress, TargetRefused, WebhookTargetPolicy, portOf } from './target-policy';

export const SIGNATURE_HEADER = 'X-Hangar-Signature-256';

/** `sha256=<hex HMAC-SHA256 of the exact body bytes, keyed with the webhook secret>`. */
export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

export interface SendOutcome {
  /** 0 when no HTTP answer arrived. */
  statusCode: number;
  success: boolean;
  error: string;
  durationMs: number;
  /**
   * For the operator's log only, never stored or answered: the failure as it
   * was, where `error` is the generic one of a private target.
   */
  detail?: string;
}

/**
 * What a failed call to a private target (one the allow-list let through)
 * records: no status, no socket error, so an app admin cannot tell a closed
 * port from an open one, or one service from another, through the delivery log.
 */
export const PRIVATE_TARGET_FAILURE = 'delivery failed (the target is a private address: its answer is in the webhooks service log, not here)';

export interface SendRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * One POST. Success is a 2xx; redirects are not followed (a 3xx is a failure:
 * following one would leave the checked target). The connection goes only to
 * addresses the policy checked, resolved once: the request's `lookup` hands
 * them over, so a second DNS answer (rebinding) is never used. The time limit
 * covers connecting, sending and the whole answer. The receiver gets the
 * caller's `traceparent`; the URL (often a secret itself) goes into no span.
 * A failure at a private target is answered as PRIVATE_TARGET_FAILURE alone.
 */
export async function sendWebhook(policy: WebhookTargetPolicy, request: SendRequest): Promise<SendOutcome> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  let url: URL;
  try {
    url = policy.parseUrl(request.url);
  } catch {
    return { statusCode: 0, success: false, error: 'the webhook URL is not a valid http(s) URL', durationMs: elapsed() };
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await policy.addressesFor(url.hostname, portOf(url));
  } catch (err) {
    const message = err instanceof TargetRefused ? `target refused: ${err.message}` : `target check failed: ${(err as Error).message}`;
    return { statusCode: 0, success: false, error: message, durationMs: elapsed() };
  }
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (err: null, all: typeof addresses) => void)(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
  const privateTarget = addresses.some((a) => !policy.isPublic(a.address));
  const transport = url.protocol === 'https:' ? https : http;
  const body = Buffer.from(request.body, 'utf8');
  const traceHeaders = currentTraceHeaders();
  return withoutAutoSpans(() => new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<SendOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (privateTarget && !outcome.success) {
        const detail = outcome.error;
        resolve({ statusCode: 0, success: false, error: PRIVATE_TARGET_FAILURE, detail, durationMs: elapsed() });
        return;
      }
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const req = transport.request(
      url,
      {
        method: 'POST',
        lookup,
        agent: false,
        headers: { ...request.headers, ...traceHeaders, 'Content-Length': String(body.length), 'User-Agent': 'Hangar-Webhooks/1' },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_ANSWER_BYTES) res.destroy();
        });
        const done = () =>
          finish({ statusCode: status, success: status >= 200 && status < 300, error: status >= 200 && status < 300 ? '' : `answered HTTP ${status}` });
        res.once('end', done);
        res.once('close', done);
        res.once('error', done);
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${request.timeoutMs} ms`));
    }, request.timeoutMs);
    req.once('error', (err) => finish({ statusCode: 0, success: false, error: err.message || String(err) }));
    req.end(body);
  }));
}
