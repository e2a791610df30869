import type { NatsConnection } from '@nats-io/transport-node';
import { isDisconnected, nextConnectionChange, watchConnection } from '@hangar/events';
import { Unavailable } from '@hangar/errors';
import type { Logger } from '@hangar/logger';
import type { ObjectStorage } from '@hangar/storage';
import { type AskTimings, ParseNotAccepted, requestDebugFileParse, requestParse, within } from './client';
import type { DebugFileParseReply, DebugFileParseRequest, ParseReply } from './contract';
import { parseObject } from './package.job';
import { Slots } from './slots';

interface AskOptions<Q, R> {
  nc: NatsConnection;
  timeoutMs: number;
  logger: Logger;
  /** One request over NATS, answered within `remainingMs`. */
  ask: (request: Q, remainingMs: number) => Promise<R>;
  /** What to log of a request. */
  describe: (request: Q) => object;
  /** Parses in this process while it is cut off from NATS; without it, such an upload waits or is refused. */
  parseHere?: (request: Q) => Promise<R>;
}

/**
 * A parse asked over NATS is asked again when no worker confirms it (it went toward a frozen node
 * or a dead worker), and, once the connection is back, when the connection drops before the
 * answer (the request or its answer may have gone down with the old socket): else the upload
 * waited out the whole timeout (63 s across a frozen NATS node). Reading an object is idempotent,
 * so a second worker's parse of it is harmless.
 */
function askThePool<Q, R>({ nc, timeoutMs, logger, ask, describe, parseHere }: AskOptions<Q, R>): (request: Q) => Promise<R> {
  watchConnection(nc);
  return async (request) => {
    const deadline = Date.now() + timeoutMs;
    const tooLong = () => new Unavailable('Parsing the upload took too long, try again shortly');
    for (;;) {
      if (isDisconnected(nc)) {
        if (parseHere) return parseHere(request);
        if (!(await reconnectedBefore(nc, deadline))) throw tooLong();
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw tooLong();
      const drop = nextConnectionChange(nc, 'disconnect');
      try {
        const asked = ask(request, remaining);
        asked.catch(() => undefined);
        const answered = await Promise.race([asked.then((reply) => ({ reply })), drop.happened.then(() => undefined)]);
        if (answered) return answered.reply;
        logger.warn(describe(request), 'the NATS connection dropped while a parse was asked: asking again once it is back');
      } catch (err) {
        if (!(err instanceof ParseNotAccepted)) throw err;
        logger.warn(describe(request), err.reason === 'worker silent' ? 'the parsing worker fell silent mid-parse: asking again' : 'no parsing worker confirmed the request: asking again');
      } finally {
        drop.cancel();
      }
    }
  };
}

export interface ParseRouterOptions {
  nc: NatsConnection;
  prefix: string;
  timeoutMs: number;
  storage: ObjectStorage;
  logger: Logger;
  /** This process runs parsing workers (PARSE_WORKER_ENABLED), so it may parse itself. */
  localWorker: boolean;
  concurrency: number;
  timings?: AskTimings;
}

/**
 * Package parsing goes to the worker pool over NATS — except while this process is cut off from
 * NATS and hosts a worker itself: then it parses the upload in process, with the same code and
 * the same concurrency limit as its worker (the queue group could have picked that worker
 * anyway). So an upload does not fail because the event bus is down; its `release.created` waits
 * in the outbox until NATS is back. Without a local worker, an upload during an outage is refused
 * (503) as before.
 */
export function parseRouter(options: ParseRouterOptions): (objectKey: string) => Promise<ParseReply> {
  const { nc, prefix, timeoutMs, storage, logger, localWorker, concurrency, timings } = options;
  const slots = new Slots(concurrency);
  const parseHere = async (objectKey: string): Promise<ParseReply> => {
    logger.warn({ objectKey }, 'NATS is unreachable: parsing the upload in this process');
    return slots.run(async () => {
      try {
        return await parseObject(storage, objectKey);
      } catch (err) {
        logger.error({ err }, 'in-process parse failed');
        return { ok: false, kind: 'unavailable', message: 'The package could not be read from storage' };
      }
    });
  };
  return askThePool({
    nc,
    timeoutMs,
    logger,
    ask: (objectKey, remaining) => requestParse(nc, prefix, objectKey, remaining, timings),
    describe: (objectKey) => ({ objectKey }),
    ...(localWorker ? { parseHere } : {}),
  });
}

/** Debug files go to the same pool; the debug-files service hosts no worker, so an outage waits for NATS or is refused (503). */
export function debugFileParseRouter(options: { nc: NatsConnection; prefix: string; timeoutMs: number; logger: Logger; timings?: AskTimings }): (request: DebugFileParseRequest) => Promise<DebugFileParseReply> {
  const { nc, prefix, timeoutMs, logger, timings } = options;
  return askThePool({
    nc,
    timeoutMs,
    logger,
    ask: (request, remaining) => requestDebugFileParse(nc, prefix, request, remaining, timings),
    describe: (request) => ({ objectKey: request.objectKey }),
  });
}

/** Whether `nc` reconnects before `deadline`. */
async function reconnectedBefore(nc: NatsConnection, deadline: number): Promise<boolean> {
  const reconnect = nextConnectionChange(nc, 'reconnect');
  try {
    return (await within(reconnect.happened.then(() => true), Math.max(0, deadline - Date.now()))) === true;
  } finally {
    reconnect.cancel();
  }
}
