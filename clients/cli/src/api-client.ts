/** A refusal from the server: its `error` message is what the user is shown. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly entry?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** `error` and each field's complaint, as the server phrased them. */
  describe(): string {
    const details = Object.entries(this.entry ?? {}).map(([field, problems]) => `  ${field}: ${Array.isArray(problems) ? problems.join(', ') : JSON.stringify(problems)}`);
    return [this.message, ...details].join('\n');
  }
}

/** The request never got an answer (refused, reset, timed out). */
export class NetworkError extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
    this.name = 'NetworkError';
  }
}

export interface ApiClientOptions {
  baseUrl: string;
  token: string | undefined;
  /** Waits between attempts for calls safe to repeat; the number of entries is the number of retries. */
  retryDelaysMs?: number[];
  userAgent?: string;
  /** Reported before each retry, so a long wait in a CI log says why. */
  onRetry?: (attempt: number, delayMs: number, reason: string) => void;
}

type Query = Record<string, string | number | undefined>;

const RETRIABLE_STATUSES = new Set([408, 429, 502, 503, 504]);

/**
 * The CLI's one door to the public HTTP API. Every call it makes is a read or
 * a finishing call the server makes idempotent by `upload_id`, so each is
 * retried on a lost connection or a gateway that is briefly unavailable.
 */
export class ApiClient {
  constructor(private readonly options: ApiClientOptions) {}

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  headers(): Record<string, string> {
    return {
      ...(this.options.token ? { Authorization: `Bearer ${this.options.token}` } : {}),
      'User-Agent': this.options.userAgent ?? 'hangar-cli',
    };
  }

  async get<T>(path: string, query: Query = {}): Promise<T> {
    return this.request<T>('GET', path, query);
  }

  async postJson<T>(path: string, body: Record<string, unknown>): Promise<T> {
    return this.request<T>('POST', path, {}, body);
  }

  private async request<T>(method: string, path: string, query: Query, body?: Record<string, unknown>): Promise<T> {
    const url = new URL(`${this.options.baseUrl}${path}`);
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
    const delays = this.options.retryDelaysMs ?? [500, 1_000, 2_000, 4_000, 8_000];
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once<T>(method, url, body);
      } catch (err) {
        const retriable = err instanceof NetworkError || (err instanceof ApiError && RETRIABLE_STATUSES.has(err.status));
        const delay = delays[attempt];
        if (!retriable || delay === undefined) throw err;
        this.options.onRetry?.(attempt + 1, delay, (err as Error).message);
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  private async once<T>(method: string, url: URL, body?: Record<string, unknown>): Promise<T> {
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        method,
        headers: { ...this.headers(), Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(10 * 60_000),
      });
      text = await res.text();
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new NetworkError(`cannot reach ${url.origin}: ${cause?.code ?? cause?.message ?? (err as Error).message}`, err);
    }
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!res.ok) {
      const answer = (parsed ?? {}) as { error?: unknown; entry?: unknown };
      const message = typeof answer.error === 'string' ? answer.error : `${res.status} ${res.statusText}${text && !parsed ? `: ${text.slice(0, 200)}` : ''}`;
      throw new ApiError(res.status, message, answer.entry && typeof answer.entry === 'object' ? (answer.entry as Record<string, unknown>) : undefined);
    }
    return parsed as T;
  }
}
