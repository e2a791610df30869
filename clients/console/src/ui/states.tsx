import type { ComponentChildren } from 'preact';
import type { Loaded } from '../api/use-api';

export function Loading({ what }: { what: string }) {
  return (
    <p class="muted" role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

/** A failed call, in the server's words, with a way to try again. */
export function ErrorNote({ error, retry }: { error: Error; retry?: () => void }) {
  return (
    <div class="error" role="alert">
      <p>{error.message}</p>
      {retry && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="muted empty">{children}</p>;
}

/** Loading, error or the content: every page's data goes through this. */
export function Show<T>({ state, what, children }: { state: Loaded<T>; what: string; children: (data: T) => ComponentChildren }) {
  if (state.error) return <ErrorNote error={state.error} retry={state.reload} />;
  if (state.data === undefined) return <Loading what={what} />;
  return <>{children(state.data)}</>;
}
