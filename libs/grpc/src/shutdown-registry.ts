import type { Logger } from '@hangar/logger';

/**
 * The order a service stops in. A part names its phase, so where a service's wiring happens to
 * register it cannot change when it stops: callers first lose the service (stop taking requests,
 * drain gRPC), then nothing new is started (consumers, jobs, workers), then NATS is drained (the
 * outbox relay's last pass included), then MongoDB closes, and last what the process itself
 * serves (metrics, telemetry).
 */
export const SHUTDOWN_PHASES = ['requests', 'work', 'events', 'database', 'process'] as const;
export type ShutdownPhase = (typeof SHUTDOWN_PHASES)[number];

/** Time kept for a part that does not say how much it needs. */
export const DEFAULT_PART_RESERVE_MS = 300;

export interface ShutdownPart {
  name: string;
  phase: ShutdownPhase;
  /**
   * Stops the part. `allowanceMs` is how long it has before it is cut off and the next part
   * starts: a part that can end its own work early (the gRPC drain cancels in-flight calls)
   * should do so a little before.
   */
  stop(allowanceMs: number): Promise<void> | void;
  /** Time kept for this part while the parts before it take theirs; DEFAULT_PART_RESERVE_MS when unset. */
  reserveMs?: number;
}

export interface ShutdownOutcome {
  /** Parts cut off at their allowance, still running when the next one started. */
  cutOff: string[];
  /** Parts whose stop threw. */
  failed: string[];
}

/**
 * Where each part of a service registers how it stops, and the one place that stops them in
 * phase order within a time budget. Every part gets what the budget has left minus what the
 * parts after it keep, so a part that hangs is cut off in time for the rest to stop, and one
 * that throws is logged and passed.
 */
export class ShutdownRegistry {
  private readonly parts: ShutdownPart[] = [];
  private stopping: Promise<ShutdownOutcome> | undefined;

  constructor(private readonly logger?: Logger) {}

  register(part: ShutdownPart): void {
    if (this.stopping) throw new Error(`"${part.name}" registered after the shutdown began`);
    this.parts.push(part);
  }

  /** True once `stopAll` has been called. */
  get stopped(): boolean {
    return this.stopping !== undefined;
  }

  /** Stops every part once, whoever calls first (a signal, a test, a failed start); later calls get the same outcome. */
  stopAll(budgetMs: number): Promise<ShutdownOutcome> {
    this.stopping ??= this.run(budgetMs);
    return this.stopping;
  }

  private async run(budgetMs: number): Promise<ShutdownOutcome> {
    const deadline = Date.now() + budgetMs;
    const phaseOf = (part: ShutdownPart) => SHUTDOWN_PHASES.indexOf(part.phase);
    // A stable sort: within a phase, parts stop in the order they registered.
    const ordered = this.parts.map((part, index) => ({ part, index })).sort((a, b) => phaseOf(a.part) - phaseOf(b.part) || a.index - b.index).map(({ part }) => part);
    const reserveOf = (part: ShutdownPart) => part.reserveMs ?? DEFAULT_PART_RESERVE_MS;
    const outcome: ShutdownOutcome = { cutOff: [], failed: [] };
    for (const [i, part] of ordered.entries()) {
      const keptForLater = ordered.slice(i + 1).reduce((sum, later) => sum + reserveOf(later), 0);
      const allowanceMs = Math.max(reserveOf(part), deadline - Date.now() - keptForLater);
      const result = await withinAllowance(() => part.stop(allowanceMs), allowanceMs);
      if (result === 'cut off') {
        outcome.cutOff.push(part.name);
        this.logger?.warn({ part: part.name, allowanceMs }, 'shutdown part did not stop in time; going on without it');
      } else if (result !== 'stopped') {
        outcome.failed.push(part.name);
        this.logger?.warn({ err: result.error, part: part.name }, 'shutdown part failed');
      }
    }
    return outcome;
  }
}

async function withinAllowance(stop: () => Promise<void> | void, allowanceMs: number): Promise<'stopped' | 'cut off' | { error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'cut off'>((resolve) => (timer = setTimeout(() => resolve('cut off'), allowanceMs)));
  const stopping = (async () => {
    await stop();
    return 'stopped' as const;
  })().catch((error: unknown) => ({ error }));
  try {
    return await Promise.race([stopping, late]);
  } finally {
    clearTimeout(timer);
  }
}
