import Ajv2020, { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Checks HTTP responses against Hangar's OpenAPI 3.1 document: the operation
 * (method + path template), the status, the content type, the JSON body
 * (JSON Schema 2020-12 with formats) and the headers the document declares
 * (X-Total-Count, Link, Location, …). The end-to-end suite runs every response
 * through it (apiClient does it on its own), so the document cannot drift
 * from what the gateway answers.
 */

type Json = Record<string, any>;

export interface ResponseToCheck {
  status: number;
  headers: Headers;
  /** Parsed JSON, when the body was JSON. */
  body?: unknown;
  text?: string;
}

const SCHEMA_BASE = 'https://hangar.test/openapi/schemas/';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

interface Route {
  template: string;
  pattern: RegExp;
  /** Literal segments first (`/api/apps/upload` before `/api/apps/{id}`), as OpenAPI matches. */
  literals: number;
  item: Json;
}

export class OpenApiValidator {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
  private readonly routes: Route[];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly document: Json) {
    addFormats(this.ajv);
    // OpenAPI's own annotation keywords, allowed inside schemas.
    this.ajv.addVocabulary(['example', 'xml', 'externalDocs', 'discriminator']);
    for (const [name, schema] of Object.entries<Json>(document.components?.schemas ?? {})) {
      this.ajv.addSchema(this.absolute(schema), `${SCHEMA_BASE}${name}`);
    }
    this.routes = Object.entries<Json>(document.paths ?? {})
      .map(([template, item]) => ({
        template,
        item,
        pattern: new RegExp(`^${template.split(/\{[^}]+\}/).map(escapeRegExp).join('[^/]+')}$`),
        literals: template.split('/').filter((s) => s && !s.startsWith('{')).length,
      }))
      .sort((a, b) => b.literals - a.literals);
  }

  /**
   * Compiles every response schema of the document now, so a broken schema or reference fails
   * here (the gateway's OpenAPI unit test) rather than at the first response that uses it.
   * Checking responses compiles only the schemas they use: an end-to-end file uses a few dozen of
   * the document's hundreds, and compiling them all cost each file about a second of CPU — over a
   * fifth of jest's CPU in the end-to-end tier (profiled 2026-11-30).
   */
  compileAll(): this {
    for (const route of this.routes) {
      for (const method of METHODS) {
        for (const [status, response] of Object.entries<Json>(route.item[method]?.responses ?? {})) {
          for (const [type, media] of Object.entries<Json>(this.resolve(response).content ?? {})) {
            if (media.schema) this.schemaAt(`${method} ${route.template} ${status} ${type}`, media.schema);
          }
        }
      }
    }
    return this;
  }

  /** The problems of one response, empty when it matches the document. */
  problems(method: string, url: string, response: ResponseToCheck): string[] {
    const path = pathOf(url);
    // A HEAD is checked against its own operation when the document has one (tus), else its GET's.
    const asked = method.toLowerCase();
    const route = this.routes.find((r) => r.pattern.test(path) && (r.item[asked] || (asked === 'head' && r.item.get)));
    const verb = route && !route.item[asked] && asked === 'head' ? 'get' : asked;
    const where = `${method.toUpperCase()} ${route?.template ?? path}`;
    if (!route) {
      if (!path.startsWith('/api/')) return []; // static assets and other non-API paths
      // Any other /api path: the documented 404 `{"error": "API not found"}`.
      if (response.status !== 404) return [`${where}: no such operation in the document, yet answered ${response.status} (expected 404 "API not found")`];
      return this.checkBody(where, `${SCHEMA_BASE}Error`, { $ref: `${SCHEMA_BASE}Error` }, response);
    }
    const operation = route.item[verb];
    const declared = operation.responses ?? {};
    const raw = declared[String(response.status)] ?? declared[`${String(response.status)[0]}XX`] ?? declared.default;
    if (!raw) {
      return [`${where}: status ${response.status} is not documented (documented: ${Object.keys(declared).join(', ')})${excerpt(response)}`];
    }
    const documented = this.resolve(raw);
    const problems: string[] = [];

    for (const [name, rawHeader] of Object.entries<Json>(documented.headers ?? {})) {
      const header = this.resolve(rawHeader);
      const value = response.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`${where} ${response.status}: header ${name} is missing`);
        continue;
      }
      if (header.schema) {
        const check = this.schemaAt(`header ${name} ${JSON.stringify(header.schema)}`, header.schema);
        if (!check(coerce(value, header.schema))) problems.push(`${where} ${response.status}: header ${name}: ${JSON.stringify(value)} ${formatErrors(check.errors, value).join('; ')}`);
      }
    }

    const content: Record<string, Json> | undefined = documented.content;
    // A HEAD answer has the headers of the documented one and, by HTTP, never a body.
    if (content && response.status !== 204 && response.status !== 304 && asked !== 'head') {
      const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      const mediaKey = Object.keys(content).find((k) => mediaMatches(k, type));
      if (!mediaKey) {
        problems.push(`${where} ${response.status}: content type ${JSON.stringify(type)} is not documented (documented: ${Object.keys(content).join(', ')})`);
      } else if (content[mediaKey]!.schema) {
        problems.push(...this.checkBody(`${where} ${response.status}`, `${verb} ${route.template} ${response.status} ${mediaKey}`, content[mediaKey]!.schema, response));
      }
    }
    return problems;
  }

  /** Throws one readable message listing every mismatch. */
  assert(method: string, url: string, response: ResponseToCheck): void {
    const problems = this.problems(method, url, response);
    if (problems.length > 0) {
      throw new Error(`The response does not match the OpenAPI document (services/gateway/src/openapi/openapi.ts):\n  ${problems.join('\n  ')}`);
    }
  }

  private checkBody(where: string, key: string, schema: Json, response: ResponseToCheck): string[] {
    if (response.body === undefined && response.text) return [`${where}: body is not JSON: ${response.text.slice(0, 200)}`];
    const check = this.schemaAt(key, schema);
    if (check(response.body)) return [];
    return formatErrors(check.errors, response.body).map((e) => `${where}: body${e}`);
  }

  private schemaAt(key: string, schema: Json): ValidateFunction {
    let check = this.compiled.get(key);
    if (!check) {
      check = this.ajv.compile(this.absolute(schema));
      this.compiled.set(key, check);
    }
    return check;
  }

  /** `#/components/schemas/X` → the absolute id it was added under. */
  private absolute(schema: Json): Json {
    return JSON.parse(JSON.stringify(schema), (k, v) => (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/') ? `${SCHEMA_BASE}${v.slice('#/components/schemas/'.length)}` : v));
  }

  /** Follows a `$ref` to components.responses / headers / parameters. */
  private resolve(value: Json): Json {
    let current = value;
    for (let i = 0; i < 5 && typeof current?.$ref === 'string'; i++) {
      const pointer = current.$ref as string;
      if (!pointer.startsWith('#/')) throw new Error(`unsupported $ref ${pointer}`);
      current = pointer
        .slice(2)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<any>((node, segment) => node?.[segment], this.document);
      if (current === undefined) throw new Error(`unresolved $ref ${pointer}`);
    }
    return current;
  }
}

function pathOf(url: string): string {
  const withoutOrigin = /^[a-z]+:\/\//i.test(url) ? new URL(url).pathname : url.split(/[?#]/)[0]!;
  return withoutOrigin || '/';
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function mediaMatches(declared: string, actual: string): boolean {
  if (declared === '*/*') return true;
  if (declared.endsWith('/*')) return actual.startsWith(declared.slice(0, -1));
  return declared === actual;
}

/** Header values are text; a header declared as a number or boolean is compared as one. */
function coerce(value: string, schema: Json): unknown {
  const types = [schema.type].flat();
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/** `/0/created_at: must match format "date-time" (got "…")`, one per problem. */
function formatErrors(errors: ErrorObject[] | null | undefined, data: unknown): string[] {
  return (errors ?? []).map((e) => {
    const at = e.instancePath || '';
    const got = valueAt(data, e.instancePath);
    const extra =
      e.keyword === 'additionalProperties'
        ? ` (unexpected field "${(e.params as { additionalProperty: string }).additionalProperty}")`
        : e.keyword === 'enum'
          ? ` (one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)})`
          : '';
    return `${at} ${e.message}${extra}; got ${truncate(JSON.stringify(got))}`;
  });
}

function valueAt(data: unknown, pointer: string): unknown {
  if (!pointer) return data;
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((node, segment) => node?.[segment], data);
}

function truncate(text: string | undefined, max = 300): string {
  if (text === undefined) return 'undefined';
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function excerpt(response: ResponseToCheck): string {
  const text = response.text ?? (response.body === undefined ? '' : JSON.stringify(response.body));
  return text ? `; body: ${truncate(text, 300)}` : '';
}

const validators = new Map<string, Promise<OpenApiValidator>>();

/** The validator for a running Hangar, from the document it serves at /api/openapi.json (fetched once). */
export function openApiValidator(baseUrl: string): Promise<OpenApiValidator> {
  let validator = validators.get(baseUrl);
  if (!validator) {
    validator = (async () => {
      const res = await fetch(`${baseUrl}/api/openapi.json`);
      if (res.status !== 200) throw new Error(`GET /api/openapi.json answered ${res.status}`);
      return new OpenApiValidator((await res.json()) as Json);
    })();
    validators.set(baseUrl, validator);
    validator.catch(() => validators.delete(baseUrl));
  }
  return validator;
}

/**
 * For tests that call fetch themselves (multipart uploads): one line after
 * the call, `await validateResponse(hangar.baseUrl, 'POST', '/api/apps/upload', res)`.
 * Throws when the response does not match the document.
 */
export async function validateResponse(baseUrl: string, method: string, url: string, response: ResponseToCheck): Promise<void> {
  (await openApiValidator(baseUrl)).assert(method, url, response);
}

/**
 * fetch, with the response checked against the document when it comes from
 * Hangar itself (not a followed redirect to storage): the status, the content
 * type, and the body when it is JSON. Returns the untouched response.
 */
export async function fetchChecked(baseUrl: string, url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, init).catch((error: Error & { cause?: { code?: string } }) => {
    // A pooled keep-alive socket the gateway closed as it was reused: the request never reached
    // it (the write failed), so sending it again on a new socket is what any client does.
    if (error.cause?.code !== 'EPIPE') throw error;
    return fetch(url, init);
  });
  if (res.redirected || new URL(url, baseUrl).origin !== new URL(baseUrl).origin) return res;
  const isJson = /^application\/json/i.test(res.headers.get('content-type') ?? '');
  const text = isJson ? await res.clone().text() : undefined;
  await validateResponse(baseUrl, init.method ?? 'GET', new URL(url, baseUrl).pathname, { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined });
  return res;
}
