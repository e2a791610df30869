import vm from 'node:vm';

/**
 * Runs a synchronous third-party decoder with a CPU-time limit. app-info-parser's binary-XML and
 * resource-table decoders loop on chunk sizes read from the file (`cursor = start + chunkSize`),
 * so a chunk claiming size 0 or a negative size spins forever — found by the hostile-input
 * property tests. A synchronous loop cannot be stopped from the outside, and it would
 * freeze the whole releases service (the parsing workers run in its process). V8's script
 * timeout can stop it: the decoder is called from a tiny script run with `timeout`, and an
 * overrun surfaces as an error (code ERR_SCRIPT_EXECUTION_TIMEOUT) the caller turns into a
 * parse error.
 */
export function runWithCpuBudget<T>(work: () => T, timeoutMs: number): T {
  const box: { work: () => T; result?: T } = { work };
  new vm.Script('box.result = box.work();').runInNewContext({ box }, { timeout: timeoutMs });
  return box.result as T;
}

export function isCpuBudgetExceeded(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
}
