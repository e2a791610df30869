import type { TokenScope } from '../auth/token-scopes';
import type { JsonSchema, Operation, Parameter, RequestBody, Response } from './schema-types';

/**
 * The building blocks of the OpenAPI document (openapi.ts) and of the declared operations
 * (operations/): schemas, responses, parameters and bodies in the forms the whole API shares.
 */

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
export const arrayOf = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
export const str = (description?: string): JsonSchema => ({ type: 'string', ...(description ? { description } : {}) });
export const int = (description?: string): JsonSchema => ({ type: 'integer', ...(description ? { description } : {}) });
export const bool = (description?: string): JsonSchema => ({ type: 'boolean', ...(description ? { description } : {}) });
export const nullableStr = (description?: string): JsonSchema => ({ type: ['string', 'null'], ...(description ? { description } : {}) });
export const timestamp: JsonSchema = {
  type: 'string',
  format: 'date-time',
  description: "ISO 8601 with milliseconds and offset, in the token user's time zone (UTC without a token).",
};

/** A closed object: every property listed is answered (`required`) unless named in `optional`. */
export function object(properties: Record<string, JsonSchema>, optional: string[] = [], description?: string): JsonSchema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    additionalProperties: false,
  };
}

export const JSON_TYPE = 'application/json';
export const json = (schema: JsonSchema) => ({ [JSON_TYPE]: { schema } });

export function ok(description: string, schema: JsonSchema, headers?: Response['headers']): Response {
  return { description, content: json(schema), ...(headers ? { headers } : {}) };
}

export const PAGE_HEADERS: Response['headers'] = {
  'X-Total-Count': { $ref: '#/components/headers/X-Total-Count' },
  Link: { $ref: '#/components/headers/Link' },
};

/** Error responses by status, shared through components.responses. */
export const ERROR_RESPONSES = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  410: 'Gone',
  412: 'PreconditionFailed',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Unprocessable',
  423: 'Locked',
  429: 'TooManyRequests',
  460: 'ChecksumMismatch',
  503: 'Unavailable',
  507: 'StorageFull',
} as const;
export type ErrorStatus = keyof typeof ERROR_RESPONSES;

export function errors(...statuses: ErrorStatus[]): Record<string, { $ref: string }> {
  return Object.fromEntries(statuses.map((s) => [String(s), { $ref: `#/components/responses/${ERROR_RESPONSES[s]}` }]));
}

// What each kind of operation can fail with. 503: a service or storage is down.
export const READ_WITH_TOKEN: ErrorStatus[] = [401, 403, 404, 422, 503];
export const WRITE_WITH_TOKEN: ErrorStatus[] = [400, 401, 403, 404, 409, 413, 422, 503];
export const READ_WITH_KEY: ErrorStatus[] = [401, 404, 422, 503];
/** Whatever stores bytes can also find the storage full (507). */
export const UPLOAD_WITH_TOKEN: ErrorStatus[] = [...WRITE_WITH_TOKEN, 507];

export const NO_TOKEN: Operation['security'] = [];
/** A tester's session cookie (`hangar_tester`), the only credential of the tester's operations. */
export const TESTER_COOKIE = [{ tester: [] }];
/** A browser page's answer (the install and tester pages): HTML, no schema. */
export const htmlPage = (description: string) => ({ description, content: { 'text/html': {} } });
/** Console routes about the session itself: only the session cookie is read. */
export const SESSION_ONLY: Operation['security'] = [{ session: [] }];
/** channel_key routes: open, but a token, when sent, is checked and sets the time zone. */
export const OPTIONAL_TOKEN: Operation['security'] = [{}, { bearer: [] }, { token: [] }, { session: [] }];

export const param = (name: string): { $ref: string } => ({ $ref: `#/components/parameters/${name}` });

export function pathId(name: string, description: string, schema: JsonSchema = { type: 'string', pattern: '^[1-9][0-9]*$' }): Parameter {
  return { name, in: 'path', required: true, description, schema };
}
export function query(name: string, description: string, required = false, schema: JsonSchema = { type: 'string' }): Parameter {
  return { name, in: 'query', required, description, schema };
}

/** Write bodies come as multipart/form-data (Zealot clients), urlencoded or JSON, with the same field names. */
export function formBody(properties: Record<string, JsonSchema>, required: string[] = [], description?: string): RequestBody {
  const schema: JsonSchema = { type: 'object', properties, ...(required.length ? { required } : {}) };
  return {
    required: required.length > 0,
    ...(description ? { description } : {}),
    content: { 'multipart/form-data': { schema }, 'application/x-www-form-urlencoded': { schema }, [JSON_TYPE]: { schema } },
  };
}

/** Uploads stream their file: multipart only, text fields before the file part are read first. */
export function uploadBody(properties: Record<string, JsonSchema>, required: string[], description: string): RequestBody {
  const finishing = {
    upload_id: str('Instead of `file`: a complete resumable upload (`/api/uploads`) of the caller. Retried, it answers the build it already made.'),
    sha256: str('With `upload_id`: the SHA-256 (hex) of the whole file as the client computed it; a mismatch discards the upload (422).'),
  };
  const finishSchema: JsonSchema = { type: 'object', properties: { token: str('The access token, when not in the header or query.'), ...properties, ...finishing }, required: [...required, 'upload_id'] };
  return {
    required: true,
    description: `${description} Or finish a resumable upload: \`upload_id\` in place of \`file\`, in any of the three encodings.`,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties: { token: str('The access token, when not in the header or query (send it before the file).'), ...properties, ...finishing, file: { type: 'string', contentMediaType: 'application/octet-stream' } },
          required,
        },
      },
      'application/json': { schema: finishSchema },
      'application/x-www-form-urlencoded': { schema: finishSchema },
    },
  };
}

/** The answer to a conditional GET whose If-None-Match still names the content. */
export const NOT_MODIFIED = { description: 'Not modified: the ETag sent in If-None-Match still names this content' };

/** A file's answer: a redirect to storage, or its bytes through the gateway (DOWNLOAD_REDIRECT=false). */
export const downloadResponses = (what: string, contentType: string): Operation['responses'] => ({
  '200': { description: `${what}, streamed by the gateway (DOWNLOAD_REDIRECT=false)`, content: { [contentType]: {} } },
  '302': { description: `Redirect to a short-lived storage URL of ${what}`, headers: { Location: { required: true, schema: { type: 'string', format: 'uri' } } } },
});

export const DELETED = ok('Deleted', ref('Deleted'));

/** A user's role, and a collaborator's on an app. */
export const USER_ROLES = ['admin', 'developer', 'member'] as const;

/**
 * An operation object. With a 401 among its answers it can also be refused for a token's scopes
 * or app limit (403) and for too many failed tokens (429); `scopes` are shown as
 * `x-hangar-scopes` (none for an operation that reads no token).
 */
export function operationObject(operationId: string, tag: string, summary: string, responses: Operation['responses'], rest: Partial<Operation>, scopes: TokenScope[] | null): Operation {
  const limited = responses['401']
    ? { ...responses, '403': responses['403'] ?? errors(403)['403']!, '429': responses['429'] ?? { $ref: '#/components/responses/TooManyAttempts' } }
    : responses;
  return { operationId, summary, tags: [tag], ...rest, responses: limited, ...(scopes ? { 'x-hangar-scopes': [...scopes] } : {}) };
}

/** The webhooks service's formats (services/webhooks/src/domain/chat/formats.ts): it checks them, the gateway passes them on. */
export const WEBHOOK_FORMATS = ['generic', 'slack', 'teams', 'discord', 'feishu', 'dingtalk', 'wecom'];
