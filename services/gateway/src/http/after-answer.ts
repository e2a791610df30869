import type { Response } from 'express';
import type { Logger } from '@hangar/logger';

/**
 * Work a middleware does once the answer is sent or the client is gone (the audit entry, the
 * access log, the metrics): it runs from the response's event, outside any handler, so an error
 * thrown there would end the process (the audit entry of a body nested 20,000 deep did).
 * Here it is logged instead, without the request's input.
 */
export function afterAnswer(res: Response, event: 'close' | 'finish', logger: Logger, what: string, work: () => void): void {
  res.once(event, () => {
    try {
      work();
    } catch (err) {
      logger.error({ error: { type: (err as Error)?.name, message: String((err as Error)?.message ?? err).slice(0, 300), stack: (err as Error)?.stack?.slice(0, 2000) } }, `${what} failed after the answer`);
    }
  });
}
