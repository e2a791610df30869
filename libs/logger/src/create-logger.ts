import pino, { DestinationStream, Logger } from 'pino';
import { currentRequestId } from './request-context';
import { REDACT_PATHS } from './redaction';
import { activeTraceIds } from './trace-ids';

export type { Logger } from 'pino';

export interface LoggerOptions {
  /** Service name, on every line as `service`. */
  service: string;
  level?: string;
  /** Where lines go; stdout by default. Tests pass a stream to read them. */
  destination?: DestinationStream;
}

/** JSON logs with the request id and trace ids of the current context and secrets redacted. */
export function createLogger({ service, level = 'info', destination }: LoggerOptions): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      mixin() {
        const requestId = currentRequestId();
        return { ...(requestId ? { requestId } : {}), ...activeTraceIds() };
      },
      formatters: {
        level: (label) => ({ level: label }),
      },
    },
    destination,
  );
}
