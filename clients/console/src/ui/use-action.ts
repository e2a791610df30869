import { useState } from 'preact/hooks';

/**
 * A button's call: busy while it runs, the server's error when it fails,
 * and what it answered (a token's secret, shown once) when it succeeds.
 */
export function useAction<A extends unknown[], R>(run: (...args: A) => Promise<R>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | undefined>();
  const [result, setResult] = useState<R | undefined>();
  const act = async (...args: A): Promise<R | undefined> => {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await run(...args);
      setResult(() => answer);
      return answer;
    } catch (err) {
      setError(err instanceof Error ? err : new Error(String(err)));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { act, busy, error, result, clear: () => (setError(undefined), setResult(undefined)) };
}
