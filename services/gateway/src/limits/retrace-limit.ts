import type { ServiceClients } from '../clients/service-clients';
import { currentCaller } from '../http/caller-context';
import type { AttemptCounter, AttemptRule } from './attempt-rule';
import { TooManyAttempts } from './too-many-attempts';

/**
 * Bounds the Android retraces one address may ask for: a retrace streams a
 * whole ProGuard mapping (up to DEBUG_FILE_RETRACE_MAX_MAPPING_BYTES) and its
 * only credential is a channel key, which a crash tool holds. Every call counts
 * — a right key as much as a wrong one — in the same store as the failed-attempt
 * limits (shared by replicas); past `rule.maxFailures` calls in the window the
 * answer is 429 with Retry-After before the debug-files service is asked.
 */
export function limitingRetraces<C extends Pick<ServiceClients, 'debugFiles'>>(clients: C, attempts: AttemptCounter, rule: AttemptRule): C {
  // Taken now: the caller assigns the result back onto `clients`, so `clients.debugFiles` later is this wrapper.
  const debugFiles = clients.debugFiles;
  const retrace: C['debugFiles']['retrace'] = async (...args) => {
    const caller = currentCaller();
    if (caller.method !== '') {
      const waitMs = await attempts.retryAfterMs(rule, caller.address);
      if (waitMs > 0) throw new TooManyAttempts('Too many retraces from this address: try again later', Math.ceil(waitMs / 1000));
      await attempts.recordFailure(rule, caller.address);
    }
    return debugFiles.retrace(...args);
  };
  return { ...clients, debugFiles: { ...debugFiles, retrace } };
}
