import { NatsConnection, headers } from '@nats-io/transport-node';
import { Unavailable } from '@hangar/errors';
import { SpanKind, inSpan, injectTraceHeaders } from '@hangar/telemetry';
import { ParseReply, ParseRequest, isParseReply, parseSubject } from './parse-contract';

/**
 * Asks any parsing worker to read an uploaded object; waits for the answer.
 * The request's client span travels in the message headers, so the worker's
 * span (and its S3 reads) join the upload's trace.
 */
export async function requestParse(nc: NatsConnection, prefix: string, objectKey: string, timeoutMs: number): Promise<ParseReply> {
  const subject = parseSubject(prefix);
  const attributes = { 'messaging.system': 'nats', 'messaging.destination.name': subject };
  return inSpan('parse request', { kind: SpanKind.CLIENT, attributes }, () => askWorker(nc, subject, objectKey, timeoutMs));
}

async function askWorker(nc: NatsConnection, subject: string, objectKey: string, timeoutMs: number): Promise<ParseReply> {
  const request: ParseRequest = { objectKey };
  const h = headers();
  injectTraceHeaders(h);
  let answer: unknown;
  try {
    answer = (await nc.request(subject, JSON.stringify(request), { timeout: timeoutMs, headers: h })).json<unknown>();
  } catch (err) {
    const code = (err as { code?: string; name?: string })?.code ?? (err as { name?: string })?.name;
    if (String(code).includes('503') || /no responders/i.test(String((err as Error)?.message))) {
      throw new Unavailable('No package parsing worker is running, try again shortly');
    }
    if (/timeout/i.test(String((err as Error)?.message)) || String(code).toLowerCase().includes('timeout')) {
      throw new Unavailable('Parsing the package took too long, try again shortly');
    }
    throw new Unavailable('Package parsing is unavailable, try again shortly');
  }
  if (!isParseReply(answer)) throw new Unavailable('Package parsing answered with something that is not a parse result');
  return answer;
}
