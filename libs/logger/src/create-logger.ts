import pino, { DestinationStream, Logger } from 'pino';
import { currentRequestId } from './request-context';
import { REDACTED, REDACT_PATHS, redactText, redactUrl } from './redaction';
import { activeTraceIds } from './trace-ids';

export type { Logger } from 'pino';

export interface LoggerOptions {
  /** Service name, on every line as `service`. */
  service: string;
  level?: string;
  /** Where lines go; stdout by default. Tests pass a stream to read them. */
  destination?: DestinationStream;
}

const redactIfString = (value: unknown) => (typeof value === 'string' ? redactUrl(value) : value);

/**
 * URLs in the fields that carry them, and in errors' messages and stacks (a
 * library's error may quote the URL it was given), lose their credentials.
 */
const SERIALIZERS = {
  url: redactIfString,
  path: redactIfString,
  location: redactIfString,
  err: (err: unknown) => {
    const serialized = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
    if (!serialized || typeof serialized !== 'object') return serialized;
    for (const [key, value] of Object.entries(serialized)) {
      if (typeof value === 'string' && key !== 'type') serialized[key] = redactText(value);
    }
    return serialized;
  },
};

/** JSON logs with the request id and trace ids of the current context and secrets redacted. */
export function createLogger({ service, level = 'info', destination }: LoggerOptions): Logger {
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      serializers: SERIALIZERS,
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
