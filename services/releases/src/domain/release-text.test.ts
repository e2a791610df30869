import { InvalidArgument } from '@hangar/errors';
import { matchesBundleIdRule } from './bundle-id-rule';
import { parseChangelog, textChangelog } from './changelog';
import { parseCustomFields } from './custom-fields';

describe('changelog', () => {
  it('when plain text is given, then each non-empty line is an entry without its leading dash', () => {
    expect(parseChangelog('- Fix crash\n\n* Add dark mode\r\nPlain line\n')).toEqual([
      { message: 'Fix crash' },
      { message: 'Add dark mode' },
      { message: 'Plain line' },
    ]);
  });

  it('when a JSON array is given, then its entries are kept', () => {
    const raw = JSON.stringify([{ message: 'a', author: 'Ann', email: 'a@x.io', date: '2026-11-22 10:00:00' }, { message: 'b' }]);
    expect(parseChangelog(raw)).toEqual([{ message: 'a', author: 'Ann', email: 'a@x.io', date: '2026-11-22 10:00:00' }, { message: 'b' }]);
  });

  it.each(['{"message":"x"}', '42', '[1,2]', '[{"author":"no message"}]', '[{"message":"x"', 'true'])('when the changelog is %s, then 422', (raw) => {
    expect(() => parseChangelog(raw)).toThrow(InvalidArgument);
  });

  it('when rendered as text, then each entry is a "- message" line', () => {
    expect(textChangelog([{ message: 'a' }, { message: 'b' }])).toBe('- a\n- b');
  });

  it('when 10,000 lines are given, then they are all kept; one more is refused', () => {
    expect(parseChangelog(Array.from({ length: 10_000 }, (_, i) => `line ${i}`).join('\n'))).toHaveLength(10_000);
    expect(() => parseChangelog(Array.from({ length: 10_001 }, (_, i) => `line ${i}`).join('\n'))).toThrow(InvalidArgument);
  });
});

describe('custom fields', () => {
  it('when a JSON array of fields is given, then name, value and icon are kept', () => {
    expect(parseCustomFields('[{"name":"env","value":"qa","icon":"fa-solid fa-flask"},{"name":"n","value":3}]')).toEqual([
      { name: 'env', value: 'qa', icon: 'fa-solid fa-flask' },
      { name: 'n', value: '3' },
    ]);
  });

  it.each(['{"name":"x"}', 'not json', '[{"value":"no name"}]', '[{"name":"x","value":{}}]', '"text"'])('when custom_fields is %s, then 422', (raw) => {
    expect(() => parseCustomFields(raw)).toThrow(InvalidArgument);
  });
});

describe('bundle id rule', () => {
  it.each([
    ['*', 'com.acme.app', true],
    ['', 'com.acme.app', true],
    ['com.acme.app', 'com.acme.app', true],
    ['com.acme.app', 'com.acme.app2', false],
    ['com.acme.*', 'com.acme.app', true],
    ['com.acme.*', 'com.other.app', false],
    ['*.beta', 'com.acme.beta', true],
    ['com.acme.*', 'xcom.acme.app', false],
    ['com.a*e.app', 'com.acme.app', true],
  ])('when the rule is %s and the id %s, then match is %s', (rule, id, expected) => {
    expect(matchesBundleIdRule(rule, id)).toBe(expected);
  });
});
