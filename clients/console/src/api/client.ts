import createClient from 'openapi-fetch';
import type { components, paths } from '@hangar/api-types';

export type Schemas = components['schemas'];

/**
 * The one way the console speaks to Hangar: openapi-fetch typed from the
 * gateway's OpenAPI document, so a renamed field breaks this build. The
 * session cookie travels by itself (same origin); writes add the session's
 * CSRF token, which the gateway requires of every cookie-authenticated change.
 */
export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });

let csrfToken = '';
export const setCsrfToken = (token: string) => (csrfToken = token);
/** For the few calls that do not go through openapi-fetch (tus-js-client's upload requests). */
export const currentCsrfToken = () => csrfToken;

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
api.use({
  onRequest({ request }) {
    if (!SAFE.has(request.method) && csrfToken) request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
});

/** A refusal as the server worded it, with the fields it names. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly entry?: Record<string, string[]>,
  ) {
    super(message);
  }
}

/** What every openapi-fetch call answers. */
interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data, or an ApiError carrying the server's own `error` message. */
export async function must<T>(call: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await call;
  } catch {
    throw new ApiError('Hangar could not be reached: check your connection and try again.', 0);
  }
  if (answer.response.ok) return answer.data as T;
  const body = answer.error as { error?: string; entry?: Record<string, string[]> } | undefined;
  if (answer.response.status === 401) onSignedOut?.();
  throw new ApiError(body?.error || `The server answered ${answer.response.status} ${answer.response.statusText}`, answer.response.status, body?.entry);
}

/** The X-Total-Count of a paginated answer. */
export async function mustPage<T>(call: Promise<Answer<T>>): Promise<{ items: T; total: number }> {
  const answer = await call;
  const items = await must(Promise.resolve(answer));
  return { items, total: Number(answer.response.headers.get('x-total-count') ?? 0) };
}

let onSignedOut: (() => void) | undefined;
/** The session ended under us (revoked elsewhere, expired): the app shows the sign-in page. */
export const whenSignedOut = (callback: () => void) => (onSignedOut = callback);
