import type { NatsConnection } from '@nats-io/transport-node';
import { isDisconnected, watchConnection } from '@hangar/events';
import type { Logger } from '@hangar/logger';
import type { ObjectStorage } from '@hangar/storage';
import { requestParse } from './package-parse.client';
import { parseObject } from './package-parse.worker';
import type { ParseReply } from './parse-contract';

export interface ParseRouterOptions {
  nc: NatsConnection;
  prefix: string;
  timeoutMs: number;
  storage: ObjectStorage;
  logger: Logger;
  /** This process runs parsing workers (PARSE_WORKER_ENABLED), so it may parse itself. */
  localWorker: boolean;
  concurrency: number;
}

/**
 * Parsing goes to the worker pool over NATS — except while this process is
 * cut off from NATS and hosts a worker itself: then it parses the upload in
 * process, with the same code and the same concurrency limit as its worker
 * (the queue group could have picked that worker anyway). So an upload does
 * not fail because the event bus is down; its `release.created` waits in the
 * outbox until NATS is back. Without a local worker, an upload during an
 * outage is refused (503) as before.
 */
export function parseRouter(options: ParseRouterOptions): (objectKey: string) => Promise<ParseReply> {
  const { nc, prefix, timeoutMs, storage, logger, localWorker, concurrency } = options;
  watchConnection(nc);

  let running = 0;
  const waiting: (() => void)[] = [];
  const acquire = async () => {
    while (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
  };
  const release = () => {
    running -= 1;
    waiting.shift()?.();
  };

  return async (objectKey) => {
    if (!isDisconnected(nc) || !localWorker) return requestParse(nc, prefix, objectKey, timeoutMs);
    logger.warn({ objectKey }, 'NATS is unreachable: parsing the upload in this process');
    await acquire();
    try {
      return await parseObject(storage, objectKey);
    } catch (err) {
      logger.error({ err }, 'in-process parse failed');
      return { ok: false, kind: 'unavailable', message: 'The package could not be read from storage' };
    } finally {
      release();
    }
  };
}
