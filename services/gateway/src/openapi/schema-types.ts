/**
 * The parts of OpenAPI 3.1 this document uses, typed so a misspelt key or a
 * wrong nesting fails the build instead of producing a document no tool reads.
 */

/** JSON Schema 2020-12, as OpenAPI 3.1 embeds it (only the keywords used here). */
export interface JsonSchema {
  $ref?: string;
  type?: JsonType | JsonType[];
  description?: string;
  format?: string;
  pattern?: string;
  enum?: readonly (string | number | boolean | null)[];
  const?: string | number | boolean | null;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  allOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  default?: unknown;
  examples?: unknown[];
  contentMediaType?: string;
}

type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface Header {
  description?: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface MediaType {
  schema?: JsonSchema;
}

export interface Response {
  description: string;
  headers?: Record<string, Header | { $ref: string }>;
  content?: Record<string, MediaType>;
}

export interface RequestBody {
  description?: string;
  required?: boolean;
  content: Record<string, MediaType>;
}

export type SecurityRequirement = Record<string, string[]>;

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: RequestBody;
  responses: Record<string, Response | { $ref: string }>;
  /** [] = no token needed; absent = the document's default (a token). */
  security?: SecurityRequirement[];
  /** The scopes of which a scoped token needs one (declared with the operation); absent: no token is read. */
  'x-hangar-scopes'?: string[];
}

export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options';

export type PathItem = Partial<Record<Method, Operation>> & { parameters?: Parameter[] };

export interface OpenApiDocument {
  openapi: '3.1.0';
  jsonSchemaDialect?: string;
  info: { title: string; version: string; description?: string; license?: { name: string; identifier?: string } };
  servers?: { url: string; description?: string }[];
  tags?: { name: string; description?: string }[];
  security?: SecurityRequirement[];
  paths: Record<string, PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, Response>;
    parameters: Record<string, Parameter>;
    headers: Record<string, Header>;
    securitySchemes: Record<string, { type: 'http'; scheme: 'bearer'; description?: string } | { type: 'apiKey'; in: 'query' | 'header' | 'cookie'; name: string; description?: string }>;
  };
}
