import { FieldErrors, InvalidArgument, withArticle } from '@hangar/errors';
import { openApiDocument } from '../openapi/openapi';

type Schema = { type?: string | string[]; items?: Schema; properties?: Record<string, Schema> };
type Operation = { operationId?: string; requestBody?: { content?: Record<string, { schema?: Schema }> } };

/**
 * The body fields each operation documents (the OpenAPI document, by operation and media type):
 * what the gateway holds a parsed JSON or urlencoded body to before any route reads it.
 */
class DocumentedBodies {
  private readonly fields = new Map<string, Map<string, Record<string, Schema>>>();

  constructor() {
    const paths = openApiDocument('').paths as unknown as Record<string, Record<string, Operation>>;
    for (const item of Object.values(paths)) {
      for (const operation of Object.values(item)) {
        if (!operation || typeof operation !== 'object' || !operation.operationId) continue;
        const byType = new Map<string, Record<string, Schema>>();
        for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) byType.set(type, media.schema?.properties ?? {});
        this.fields.set(operation.operationId, byType);
      }
    }
  }

  of(operationId: string, mediaType: string): Record<string, Schema> {
    return this.fields.get(operationId)?.get(mediaType) ?? {};
  }
}

let documented: DocumentedBodies | undefined;

const kindOf = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);
const typesOf = (schema: Schema | undefined) => (schema?.type === undefined ? undefined : Array.isArray(schema.type) ? schema.type : [schema.type]);
const NESTED = new Set(['array', 'object']);

/**
 * The shape rule of every parsed body, in one place: a JSON or urlencoded body is the
 * same fields a form sends, so a field the document gives as text is text and one it gives as a
 * number cannot be an array or an object (a JSON array where `token` goes reached the token's hash
 * as a 500), the items of a documented array are scalars, and `token` — read by every route that
 * takes a token in the body — is text whatever the operation. Every problem is reported at once as a 422 in the
 * contract's shape, before any route reads the body.
 */
export function checkDocumentedFields(operationId: string | undefined, mediaType: string, body: unknown): void {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  documented ??= new DocumentedBodies();
  const fields = operationId ? documented.of(operationId, mediaType) : {};
  const entry: FieldErrors = {};
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    const kind = kindOf(value);
    if (name === 'token' && kind !== 'string') {
      entry[name] = ['must be a string'];
      continue;
    }
    const types = typesOf(Object.hasOwn(fields, name) ? fields[name] : undefined);
    if (!types) continue;
    if (NESTED.has(kind) && !types.includes(kind)) {
      entry[name] = [`must be ${types.filter((t) => t !== 'null').map((t) => withArticle(t)).join(' or ')}`];
      continue;
    }
    // A text field: what every route's readTextFields says of a number or a boolean too.
    if (kind !== 'string' && types.every((t) => t === 'string' || t === 'null')) {
      entry[name] = ['must be a string'];
      continue;
    }
    if (kind === 'array' && (value as unknown[]).some((item) => item !== null && typeof item === 'object')) entry[name] = ['must be an array of scalars'];
  }
  if (Object.keys(entry).length > 0) throw new InvalidArgument(`Invalid fields: ${Object.keys(entry).join(', ')}`, entry);
}
