import fc from 'fast-check';
import { InvalidArgument } from '@hangar/errors';
import { parseChangelog, textChangelog } from './changelog';
import { parseCustomFields } from './custom-fields';

// Hostile input, property-based: the upload's text fields are parsed to their documented
// shapes or refused with InvalidArgument (422). Version ordering has its properties in
// libs/versions (version-order.property.test.ts).

function onlyInvalidArgument<T>(work: () => T, field: string): T | InvalidArgument {
  try {
    return work();
  } catch (error) {
    if (!(error instanceof InvalidArgument)) throw error;
    expect(Object.keys(error.entry ?? {})).toEqual([field]);
    return error;
  }
}

const text = fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 100 }), fc.string({ unit: 'binary', maxLength: 100 }));
const jsonText = fc.oneof(fc.json({ maxDepth: 3 }), fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? 'null'));
const entryLike = fc.dictionary(fc.constantFrom('message', 'author', 'email', 'date', 'name', 'value', 'icon', 'other'), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 5 });

describe('changelog and custom_fields (property-based)', () => {
  it('parseChangelog: any text or JSON gives entries with non-empty string messages of at most 10,000 characters, or a 422 on changelog', () => {
    fc.assert(
      fc.property(fc.oneof(text, jsonText, fc.array(entryLike, { maxLength: 4 }).map((a) => JSON.stringify(a))), (raw) => {
        const result = onlyInvalidArgument(() => parseChangelog(raw), 'changelog');
        if (result instanceof InvalidArgument) return;
        for (const entry of result) {
          expect(typeof entry.message).toBe('string');
          expect(entry.message.trim()).not.toBe('');
          expect(entry.message.length).toBeLessThanOrEqual(10_000);
          for (const key of ['author', 'email', 'date'] as const) expect(['string', 'undefined']).toContain(typeof entry[key]);
        }
        expect(typeof textChangelog(result)).toBe('string');
      }),
      { numRuns: 1000 },
    );
  });

  it('parseChangelog: plain text keeps one entry per non-blank line, up to 10,000 lines, and refuses more', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,20}$/), { minLength: 1, maxLength: 50 }), fc.constantFrom('\n', '\r\n'), (lines, eol) => {
        expect(parseChangelog(lines.join(eol)).map((e) => e.message)).toEqual(lines.map((l) => l.trim()));
      }),
      { numRuns: 200 },
    );
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `- change ${i}`).join('\n');
    expect(parseChangelog(lines(10_000))).toHaveLength(10_000);
    expect(() => parseChangelog(lines(10_001))).toThrow(InvalidArgument);
  });

  it('parseCustomFields: any text or JSON gives {name, value, icon?} strings, at most 100, or a 422 on custom_fields', () => {
    fc.assert(
      fc.property(fc.oneof(text, jsonText, fc.array(entryLike, { maxLength: 4 }).map((a) => JSON.stringify(a))), (raw) => {
        const result = onlyInvalidArgument(() => parseCustomFields(raw), 'custom_fields');
        if (result instanceof InvalidArgument) return;
        expect(result.length).toBeLessThanOrEqual(100);
        for (const field of result) {
          expect(typeof field.name).toBe('string');
          expect(field.name.trim()).not.toBe('');
          expect(typeof field.value).toBe('string');
          expect(['string', 'undefined']).toContain(typeof field.icon);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
