import type { Request } from 'express';
import { FieldErrors, InvalidArgument } from '@hangar/errors';

type Source = Record<string, unknown> | undefined;

/**
 * No text Hangar stores or looks up may hold U+0000: PostgreSQL's jsonb (under
 * the default engine) cannot, so such a value would fail in the database as a
 * 500 instead of being refused here as the bad input it is.
 */
const NUL_PROBLEM = 'must not contain NUL characters';

/** A path or query id: a positive integer, else 422 naming the parameter. */
export function parseId(value: unknown, name = 'id'): number {
  // Sixteen digits reach past 2^53: `9999999999999999` became 1e16, which the services' int64
  // decoding refuses ("larger than Number.MAX_SAFE_INTEGER"), so the request ended as a 500.
  if (typeof value === 'string' && /^[1-9]\d{0,15}$/.test(value) && Number.isSafeInteger(Number(value))) return Number(value);
  throw InvalidArgument.field(name, 'must be a positive integer');
}

/**
 * Reads text fields of a body (form fields are always text; JSON may carry
 * other types, which are refused rather than guessed at). Absent fields are
 * left out; every wrong type is reported at once.
 */
export function readTextFields<K extends string>(body: Source, names: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  const entry: FieldErrors = {};
  for (const name of names) {
    const value = body?.[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') {
      entry[name] = ['must be a string'];
      continue;
    }
    if (value.includes('\0')) {
      entry[name] = [NUL_PROBLEM];
      continue;
    }
    out[name] = value;
  }
  if (Object.keys(entry).length > 0) throw new InvalidArgument(`Invalid fields: ${Object.keys(entry).join(', ')}`, entry);
  return out;
}

/** Fields the seed marks required: present and non-blank, all reported at once. */
export function requireFields(fields: Record<string, string | undefined>, names: readonly string[]): void {
  const entry: FieldErrors = {};
  for (const name of names) if (!fields[name]?.trim()) entry[name] = ["can't be blank"];
  if (Object.keys(entry).length > 0) throw new InvalidArgument(`Missing fields: ${Object.keys(entry).join(', ')}`, entry);
}

/** One query parameter as text; repeated parameters are refused. */
/** A query parameter that must be there and not blank. */
export function requiredQuery(req: Request, name: string): string {
  const value = queryText(req, name);
  if (!value?.trim()) throw InvalidArgument.field(name, "can't be blank");
  return value;
}

export function queryText(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw InvalidArgument.field(name, 'must be given once');
  if (value.includes('\0')) throw InvalidArgument.field(name, NUL_PROBLEM);
  return value;
}
