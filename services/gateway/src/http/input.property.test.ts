import type { Request, Response } from 'express';
import fc from 'fast-check';
import { InvalidArgument } from '@hangar/errors';
import { parseId, queryText, readTextFields, requireFields } from './input';
import { MAX_PER_PAGE, parsePage, setPageHeaders } from './pagination';
import { sanitizeFileName } from './streamed-upload';

// Hostile input, property-based: the gateway's input helpers answer every value with a
// result or an InvalidArgument (422) — never another error, which the error edge turns into a 500.

const anyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.stringMatching(/^[+-]?\d{0,20}(\.\d*)?(e[+-]?\d+)?$/),
  fc.constantFrom('', ' ', '0', '00', '01', '1e3', '0x10', 'Infinity', 'NaN', '9007199254740991', '9007199254740992', '9999999999999999', '1'.repeat(400), 'a\u0000b'),
);
/** What `req.query[name]` can hold: a string, a repeated parameter (array), or nested (qs-style) objects. */
const queryValue = fc.oneof(anyText, fc.array(anyText, { minLength: 2, maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 5 }), anyText, { maxKeys: 2 }), fc.constant(undefined));

/** Runs `work`; it may only return or throw InvalidArgument (whose entry names the field). */
function onlyInvalidArgument<T>(work: () => T, field?: string): T | InvalidArgument {
  try {
    return work();
  } catch (error) {
    if (!(error instanceof InvalidArgument)) throw error;
    expect(error.message.length).toBeGreaterThan(0);
    if (field) expect(Object.keys(error.entry ?? {})).toContain(field);
    return error;
  }
}

const request = (query: Record<string, unknown>, originalUrl = '/api/apps') => ({ query, originalUrl }) as unknown as Request;

describe('gateway input helpers (property-based)', () => {
  it('parseId: any value is a safe positive integer written exactly as sent, or a 422 naming the parameter', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, fc.anything()), fc.constantFrom('id', 'app_id', 'user_id'), (value, name) => {
        const result = onlyInvalidArgument(() => parseId(value, name), name);
        if (typeof result === 'number') {
          expect(Number.isSafeInteger(result) && result > 0).toBe(true);
          expect(String(result)).toBe(value);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('parseId: every safe positive integer is accepted as itself', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (n) => expect(parseId(String(n))).toBe(n)),
      { numRuns: 1000 },
    );
  });

  it('parsePage: any page / per_page is in range (page >= 1, per_page 1..100) or a 422; setPageHeaders never throws', () => {
    fc.assert(
      fc.property(queryValue, queryValue, fc.nat({ max: 10_000_000 }), fc.oneof(fc.string({ maxLength: 60 }), fc.string({ minLength: 1000, maxLength: 3000 })), (page, perPage, total, rest) => {
        const query: Record<string, unknown> = {};
        if (page !== undefined) query.page = page;
        if (perPage !== undefined) query.per_page = perPage;
        const req = request(query, `/api/apps?${encodeURIComponent(rest)}&token=secret`);
        const result = onlyInvalidArgument(() => parsePage(req));
        if (result instanceof InvalidArgument) {
          expect(Object.keys(result.entry ?? {}).every((k) => k === 'page' || k === 'per_page')).toBe(true);
          return;
        }
        expect(Number.isSafeInteger(result.page) && result.page >= 1).toBe(true);
        expect(Number.isSafeInteger(result.perPage) && result.perPage >= 1 && result.perPage <= MAX_PER_PAGE).toBe(true);
        const set: Record<string, string> = {};
        setPageHeaders(req, { setHeader: (k: string, v: string) => (set[k] = v) } as unknown as Response, result, total, 'http://hangar.test');
        expect(set['X-Total-Count']).toBe(String(total));
        if (set.Link !== undefined) expect(set.Link).not.toContain('secret');
        expect((set.Link ?? '').length).toBeLessThanOrEqual(4096);
      }),
      { numRuns: 1000 },
    );
  });

  it('queryText: a parameter given once is returned as sent; repeated, nested or holding NUL is a 422 naming it', () => {
    fc.assert(
      fc.property(fc.constantFrom('channel_key', 'release_version', 'build_version', 'bundle_id', 'order', 'size'), queryValue, (name, value) => {
        const result = onlyInvalidArgument(() => queryText(request({ [name]: value }), name), name);
        const acceptable = value === undefined || (typeof value === 'string' && !value.includes('\0'));
        expect(result instanceof InvalidArgument).toBe(!acceptable);
        if (acceptable) expect(result).toBe(value);
      }),
      { numRuns: 500 },
    );
  });

  it('readTextFields / requireFields: any JSON-ish body gives strings for the asked fields or one 422 listing every wrong one', () => {
    const names = ['name', 'changelog', 'custom_fields', 'release_version', 'toString', '__proto__', 'constructor'] as const;
    fc.assert(
      fc.property(fc.oneof(fc.dictionary(fc.constantFrom(...names, 'other'), fc.jsonValue(), { maxKeys: 6 }), fc.object(), fc.constant(undefined)), (body) => {
        const result = onlyInvalidArgument(() => readTextFields(body as Record<string, unknown> | undefined, names));
        if (result instanceof InvalidArgument) {
          for (const field of Object.keys(result.entry ?? {})) {
            const sent = (body as Record<string, unknown>)[field];
            // Text is refused only when it is not a string, or holds NUL (PostgreSQL's jsonb cannot store it).
            if (typeof sent === 'string') expect(sent).toContain('\0');
          }
          return;
        }
        for (const [field, value] of Object.entries(result)) {
          expect(typeof value).toBe('string');
          expect(value).toBe((body as Record<string, unknown>)[field]);
        }
        onlyInvalidArgument(() => requireFields(result, ['name', 'release_version']));
      }),
      { numRuns: 1000 },
    );
  });

  it('sanitizeFileName: any client file name becomes one path component of at most 255 characters without control characters', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 600 }), fc.constantFrom(undefined, '..', '.', '../../etc/passwd', 'C:\\evil\\..\\x.ipa', ' \u0000..\u0000 ')), (name) => {
        const clean = sanitizeFileName(name);
        expect(clean.length).toBeLessThanOrEqual(255);
        expect(clean).not.toMatch(/[/\\\u0000-\u001f\u007f]/);
        expect(['.', '..']).not.toContain(clean);
      }),
      { numRuns: 2000 },
    );
  });
});
