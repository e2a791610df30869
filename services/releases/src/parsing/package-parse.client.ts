import type { NatsConnection } from '@nats-io/transport-node';
import { Unavailable } from '@hangar/errors';
import { ParseReply, ParseRequest, isParseReply, parseSubject } from './parse-contract';

/** Asks any parsing worker to read an uploaded object; waits for the answer. */
export async function requestParse(nc: NatsConnection, prefix: string, objectKey: string, timeoutMs: number): Promise<ParseReply> {
  const request: ParseRequest = { objectKey };
  let answer: unknown;
  try {
    answer = (await nc.request(parseSubject(prefix), JSON.stringify(request), { timeout: timeoutMs })).json<unknown>();
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
