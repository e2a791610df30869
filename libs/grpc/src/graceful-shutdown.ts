import type { Logger } from '@hangar/logger';
import { ShutdownRegistry } from './shutdown-registry';

export interface ShutdownStep {
  name: string;
  run: () => Promise<void> | void;
}

/**
 * On the first SIGINT or SIGTERM, stops every registered part in phase order within
 * `timeoutMs`, then exits: 0 when all stopped in time, 1 when one had to be cut off.
 * `once`: a second Ctrl-C while stopping gets Node's default, an immediate end.
 */
export function stopOnSignals(registry: ShutdownRegistry, { logger, timeoutMs }: { logger: Logger; timeoutMs: number }): void {
  const stop = async (signal: string) => {
    if (registry.stopped) return;
    logger.info({ signal }, 'shutting down');
    const { cutOff } = await registry.stopAll(timeoutMs);
    if (cutOff.length > 0) {
      logger.error({ timeoutMs, cutOff }, 'shutdown timed out; exiting');
      process.exit(1);
    }
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

/**
 * The gateway's shutdown: its steps stop in the order given (stop accepting, finish in-flight
 * work, drain NATS, …). The services register their parts through `startService` instead.
 */
export function handleShutdown(steps: ShutdownStep[], { logger, timeoutMs }: { logger: Logger; timeoutMs: number }): void {
  const registry = new ShutdownRegistry(logger);
  // One phase: the steps' own order is the order.
  for (const step of steps) registry.register({ name: step.name, phase: 'requests', stop: () => step.run() });
  stopOnSignals(registry, { logger, timeoutMs });
}
