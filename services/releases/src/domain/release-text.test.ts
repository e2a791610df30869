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

  it('when a JSON array holds an entry without a message, then 422', () => {
    expect(() => parseChangelog('[{"author":"no message"}]')).toThrow(InvalidArgument);
  });

  // Zealot stores any changelog that is not a JSON array of entries as text: these were 422s.
  it.each(['2024', 'true', 'null', '3.14', '{"message":"x"}', '[1,2]', '["a"]', '[{"message":"x"'])('when the changelog is %s, then it is one plain-text entry', (raw) => {
    expect(parseChangelog(raw)).toEqual([{ message: raw }]);
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

  // What the fastlane plugin sends with its defaults, and with ZEALOT_CUSTOM_FIELDS=a,b.
  it.each(['["[]"]', '["a","b"]', '[1, null, true, []]'])('when custom_fields is %s, then its entries that are not objects are dropped', (raw) => {
    expect(parseCustomFields(raw)).toEqual([]);
  });

  it('when objects and other entries are mixed, then the objects are kept', () => {
    expect(parseCustomFields('["[]", {"name":"env","value":"qa"}]')).toEqual([{ name: 'env', value: 'qa' }]);
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
