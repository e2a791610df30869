import { DeadlineExceeded, Unavailable, Unimplemented } from '@hangar/errors';
import type { ServiceClient } from '@hangar/grpc';
import type { Logger } from '@hangar/logger';
import type { apps } from '@hangar/proto';
import type { LegacyWebhookSource, MoveOutcome } from '../domain/move-from-apps';

/** The whole export is one stream: room for a large one, far beyond a unary call's deadline. */
const EXPORT_DEADLINE_MS = 30 * 60 * 1_000;
/** The first wait before trying the move again; it doubles up to the configured interval. */
const FIRST_RETRY_MS = 250;
/** How often apps is asked whether it answers yet, for the first APPS_START_MS; then every `retryMs`. */
const READY_PROBE_MS = 100;
const APPS_START_MS = 10_000;

/**
 * The apps service's old webhook records over gRPC, and the patience the
 * move needs: at start apps may not answer yet (starting, or still the
 * version before the move, which has no export), so the move is tried again
 * until it answers — soon at first (apps usually answers within a second of
 * starting beside this service), then less and less often, up to `retryMs`
 * apart. Any other failure stops the start, to be seen.
 *
 * Before the first call it waits until apps answers its health on a channel of
 * its own (`ready`): a call refused while apps was still starting left the
 * client's channel in grpc-js's reconnect backoff (500 ms, growing), and every
 * start of Hangar waited it out — this service was the last to listen, 1.2 s
 * after the others on a quiet machine.
 */
export class AppsLegacyWebhooks {
  constructor(
    private readonly client: ServiceClient<typeof apps.AppsServiceDefinition>,
    private readonly logger: Logger,
    private readonly retryMs: number,
    private readonly ready: () => Promise<boolean> = async () => true,
  ) {}

  /** Asks apps whether it answers until it does: often while it is likely starting, then every `retryMs`. */
  private async untilReady(): Promise<void> {
    const since = Date.now();
    while (!(await this.ready())) {
      await new Promise((resolve) => setTimeout(resolve, Date.now() - since < APPS_START_MS ? READY_PROBE_MS : this.retryMs));
    }
  }

  async untilMoved(move: (source: LegacyWebhookSource) => Promise<MoveOutcome | undefined>): Promise<void> {
    const source: LegacyWebhookSource = {
      records: () => this.client.exportLegacyWebhooks({}, { deadline: EXPORT_DEADLINE_MS }),
      drop: async () => {
        await this.client.dropLegacyWebhooks({});
      },
    };
    let waitMs = Math.min(FIRST_RETRY_MS, this.retryMs);
    for (;;) {
      try {
        await this.untilReady();
        await move(source);
        return;
      } catch (err) {
        if (!(err instanceof Unavailable || err instanceof Unimplemented || err instanceof DeadlineExceeded)) throw err;
        this.logger.warn({ err: { message: err.message, code: err.code } }, 'the apps service cannot hand its webhook records over yet; trying again');
        await new Promise((resolve) => setTimeout(resolve, waitMs));
        waitMs = Math.min(waitMs * 2, this.retryMs);
      }
    }
  }
}
