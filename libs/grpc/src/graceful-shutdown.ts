import type { Logger } from '@hangar/logger';

export interface ShutdownStep {
  name: string;
  run: () => Promise<void> | void;
}

/**
 * One ordered shutdown on SIGINT/SIGTERM: the steps run in order (stop
 * accepting, report not-serving, finish in-flight work, drain NATS, close
 * MongoDB); a timer forces the exit if they take longer than `timeoutMs`.
 */
export function handleShutdown(steps: ShutdownStep[], { logger, timeoutMs }: { logger: Logger; timeoutMs: number }): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown timed out; exiting');
      process.exit(1);
    }, timeoutMs);
    force.unref();
    for (const step of steps) {
      try {
        await step.run();
      } catch (err) {
        logger.warn({ err, step: step.name }, 'shutdown step failed');
      }
    }
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}
