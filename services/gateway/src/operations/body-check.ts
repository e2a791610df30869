import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import type { TObject } from '@sinclair/typebox';
import { FieldErrors, InvalidArgument, withArticle } from '@hangar/errors';

/**
 * One validator for every declared body: ajv compiles each operation's schema once, at its first
 * request. Compiled at mount, the sixty-odd schemas were 0.3 s of every gateway's start (profiled
 * 2026-11-30) — paid by each replica the autoscaler adds, and by each start in the tests — while
 * most operations of a gateway's life are a few; a first request pays about a millisecond.
 */
const ajv = new Ajv2020({ allErrors: true, strict: false });

/** What a refused field is told when its declaration says nothing else: from its type. */
export const REFUSAL = Symbol('refusal');

type FieldSchema = { type?: string | string[]; items?: FieldSchema; [REFUSAL]?: string };

/**
 * A declared body's fields checked against the types their schemas give, every problem at once
 * as a 422 naming each field; text may not hold U+0000 (PostgreSQL's jsonb cannot store it: it
 * would fail in the database as a 500). Only the shape: values — an enum, a pattern, a length,
 * a required field — are the service's to judge, after its permission check (a caller without
 * rights learns nothing from a 422), in its own words (`device_type` takes `iOS` as well as the
 * `ios` the document lists). Fields the declaration does not name are left for the handler to
 * ignore: Zealot clients send more than any one operation reads.
 */
export class BodyCheck<Body> {
  private compiled: ValidateFunction | undefined;

  constructor(private readonly schema: TObject) {}

  private get validate(): ValidateFunction {
    this.compiled ??= ajv.compile({ type: 'object', properties: Object.fromEntries(Object.entries(this.schema.properties).map(([name, field]) => [name, typesOnly(field as FieldSchema)])) });
    return this.compiled;
  }

  read(body: unknown): Partial<Body> {
    if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
    const fields = body as Record<string, unknown>;
    const entry: FieldErrors = {};
    // Null means "not sent", as a form cannot send it; the service then keeps or defaults the value.
    const sent = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null && value !== undefined));
    if (!this.validate(sent)) {
      for (const error of this.validate.errors ?? []) {
        const name = error.instancePath.split('/')[1];
        if (name && !entry[name]) entry[name] = [this.refusalOf(name)];
      }
    }
    for (const [name, value] of Object.entries(sent)) {
      if (typeof value === 'string' && value.includes('\0') && Object.hasOwn(this.schema.properties, name)) entry[name] = ['must not contain NUL characters'];
    }
    if (Object.keys(entry).length > 0) throw new InvalidArgument(`Invalid fields: ${Object.keys(entry).join(', ')}`, entry);
    const declared = Object.keys(this.schema.properties);
    return Object.fromEntries(declared.filter((name) => Object.hasOwn(sent, name)).map((name) => [name, sent[name]])) as Partial<Body>;
  }

  private refusalOf(name: string): string {
    const field = this.schema.properties[name] as FieldSchema | undefined;
    if (field?.[REFUSAL]) return field[REFUSAL];
    const types = (Array.isArray(field?.type) ? field.type : field?.type ? [field.type] : []).filter((type) => type !== 'null');
    return `must be ${types.map((type) => withArticle(type)).join(' or ') || 'valid'}`;
  }
}

/** The part of a field's schema the gateway checks: its types, and its items' types. */
function typesOnly(field: FieldSchema): FieldSchema {
  return { ...(field.type ? { type: field.type } : {}), ...(field.items ? { items: typesOnly(field.items) } : {}) };
}
