import http from 'node:http';

/** node:http, or node:https for an https URL: loaded only then (it loads TLS, 5 ms of CPU at every start). */
export const httpFor = (url: URL): typeof http => (url.protocol === 'https:' ? (require('node:https') as typeof http) : http);

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

  /**
   * `error` and each field's complaint, as the server phrased them; a complaint the message already
   * says (one field's refusal is "<field> <problem>", the problem perhaps cut short with "…" on its
   * way through gRPC's trailers) is not said twice.
   */
  describe(): string {
    const saidAlready = (field: string, problems: unknown) =>
      Array.isArray(problems) && problems.length === 1 && typeof problems[0] === 'string' && this.message.startsWith(`${field} ${problems[0].replace(/…$/, '')}`);
    const details = Object.entries(this.entry ?? {})
      .filter(([field, problems]) => !saidAlready(field, problems))
      .map(([field, problems]) => `  ${field}: ${Array.isArray(problems) ? problems.join(', ') : JSON.stringify(problems)}`);
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
    let res: PlainAnswer;
    try {
      res = await send(method, url, { ...this.headers(), Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}) }, body ? JSON.stringify(body) : undefined);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      throw new NetworkError(`cannot reach ${url.origin}: ${e.code ?? e.message}`, err);
    }
    const { text } = res;
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (res.status < 200 || res.status > 299) {
      const answer = (parsed ?? {}) as { error?: unknown; entry?: unknown };
      const message = typeof answer.error === 'string' ? answer.error : `${res.status} ${res.statusText}${text && !parsed ? `: ${text.slice(0, 200)}` : ''}`;
      throw new ApiError(res.status, message, answer.entry && typeof answer.entry === 'object' ? (answer.entry as Record<string, unknown>) : undefined);
    }
    return parsed as T;
  }
}

interface PlainAnswer {
  status: number;
  statusText: string;
  text: string;
}

/** Answers that send the call elsewhere, followed as fetch follows them. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
/** A call that gets no answer at all in this long is a lost connection. */
const CALL_TIMEOUT_MS = 10 * 60_000;

/**
 * One call over node:http(s): fetch would load undici (a tenth of the CLI's start-up CPU, measured
 * with --cpu-prof) for a handful of small JSON calls per run.
 */
async function send(method: string, url: URL, headers: Record<string, string>, body: string | undefined, redirects = 0): Promise<PlainAnswer> {
  const { request } = httpFor(url);
  const answer = await new Promise<PlainAnswer & { location?: string }>((resolve, reject) => {
    const req = request(url, { method, headers: body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } });
    req.setTimeout(CALL_TIMEOUT_MS, () => req.destroy(Object.assign(new Error('no answer in time'), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', text: Buffer.concat(chunks).toString('utf8'), location: res.headers.location }));
    });
    req.end(body);
  });
  if (REDIRECTS.has(answer.status) && answer.location && redirects < MAX_REDIRECTS) {
    const keep = answer.status === 307 || answer.status === 308 || method === 'GET' || method === 'HEAD';
    return send(keep ? method : 'GET', new URL(answer.location, url), headers, keep ? body : undefined, redirects + 1);
  }
  return answer;
}
