import { validateResponse } from './openapi-validator';

/**
 * A small fetch wrapper for tests that speak HTTP to Hangar like a CI job.
 * Every response is checked against the OpenAPI document the gateway serves
 * (openapi-validator.ts): a mismatch throws, naming each difference.
 */
export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  /** Sent as multipart/form-data (what Zealot clients send). */
  form?: Record<string, string>;
  /** File parts of the multipart body, after the `form` fields (Zealot clients send the file last). */
  files?: Record<string, { data: Buffer; fileName: string }>;
  json?: unknown;
  urlencoded?: Record<string, string>;
  headers?: Record<string, string>;
  rawBody?: string;
  /** Skip the OpenAPI check (only for responses the document cannot describe). */
  skipContractCheck?: boolean;
}

export type ApiClient = ReturnType<typeof apiClient>;

export function apiClient(baseUrl: string) {
  return async function request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: FormData | string | undefined;
    if (options.form || options.files) {
      const form = new FormData();
      for (const [k, v] of Object.entries(options.form ?? {})) form.append(k, v);
      for (const [k, f] of Object.entries(options.files ?? {})) form.append(k, new Blob([f.data]), f.fileName);
      body = form;
    } else if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.urlencoded) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.urlencoded).toString();
    } else if (options.rawBody !== undefined) {
      body = options.rawBody;
    }
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: tests look at `text`.
    }
    const response = { status: res.status, headers: res.headers, body: parsed as T, text };
    if (!options.skipContractCheck) await validateResponse(baseUrl, method, path, { ...response, body: typeof parsed === 'string' ? undefined : parsed });
    return response;
  };
}
