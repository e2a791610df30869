import { InvalidArgument } from '@hangar/errors';
import {
  isValidBundleIdRule,
  isValidSlug,
  parseBooleanText,
  parseDeviceType,
  parseNonNegativeIntText,
  validateAppName,
  validateChannelFields,
  validateCollaboratorRole,
  validateSchemeFields,
} from './fields';

function entryOf(fn: () => unknown): Record<string, string[]> | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof InvalidArgument) return err.entry;
    throw err;
  }
  throw new Error('expected InvalidArgument');
}

describe('slug (channel key) rule', () => {
  it.each(['abc', 'A-b_c', 'x'.repeat(64), 'R2D2'])('when the slug is %s, then it is accepted', (slug) => {
    expect(isValidSlug(slug)).toBe(true);
  });
  it.each(['ab', 'x'.repeat(65), 'has space', 'dot.ted', 'slash/', 'ünï', ''])('when the slug is %j, then it is refused', (slug) => {
    expect(isValidSlug(slug)).toBe(false);
  });
});

describe('bundle id rule', () => {
  it.each(['*', 'com.example.app', 'com.example.*', 'com.ex-ample_1.*.beta'])('when the rule is %s, then it is accepted', (rule) => {
    expect(isValidBundleIdRule(rule)).toBe(true);
  });
  it.each(['com example', 'com/example', 'com.example?', 'a+b', 'é.app'])('when the rule is %j, then it is refused', (rule) => {
    expect(isValidBundleIdRule(rule)).toBe(false);
  });
});

describe('device type', () => {
  it.each([
    ['iOS', 'ios'],
    ['ANDROID', 'android'],
    ['macOS', 'macos'],
    [' windows ', 'windows'],
    ['Linux', 'linux'],
  ])('when %j is given, then it is stored as %s', (input, expected) => {
    expect(parseDeviceType(input)).toBe(expected);
  });
  it.each(['iphone', 'web', '', 'constructor'])('when %j is given, then it is refused', (input) => {
    expect(parseDeviceType(input)).toBeUndefined();
  });
});

describe('form coercion', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ])('when new_build_callout is %j, then it reads as %s', (text, expected) => {
    expect(parseBooleanText(text)).toBe(expected);
  });
  it.each(['yes', 'on', '2', 'truthy', ''])('when new_build_callout is %j, then it is refused', (text) => {
    expect(parseBooleanText(text)).toBeUndefined();
  });
  it.each([
    ['0', 0],
    ['5', 5],
    ['2147483647', 2147483647],
  ])('when retained_builds is %j, then it reads as %d', (text, expected) => {
    expect(parseNonNegativeIntText(text)).toBe(expected);
  });
  it.each(['-1', '1.5', 'ten', '2147483648', '1e3', ''])('when retained_builds is %j, then it is refused', (text) => {
    expect(parseNonNegativeIntText(text)).toBeUndefined();
  });
});

describe('scheme fields', () => {
  it('when a scheme is created with a name only, then the flags take their defaults', () => {
    expect(validateSchemeFields({ name: ' Beta ' }, 'create')).toEqual({ name: 'Beta', newBuildCallout: true, retainedBuilds: 0 });
  });
  it('when text and typed values are both given, then the text wins', () => {
    expect(validateSchemeFields({ name: 'x', newBuildCallout: true, newBuildCalloutText: '0', retainedBuildsText: '3' }, 'create')).toMatchObject({
      newBuildCallout: false,
      retainedBuilds: 3,
    });
  });
  it('when every field is bad, then every field is named', () => {
    expect(Object.keys(entryOf(() => validateSchemeFields({ name: '', newBuildCalloutText: 'maybe', retainedBuildsText: '-2' }, 'create'))!).sort()).toEqual([
      'name',
      'new_build_callout',
      'retained_builds',
    ]);
  });
  it('when an update gives nothing, then nothing changes and nothing is required', () => {
    expect(validateSchemeFields({}, 'update')).toEqual({});
  });
  it('when a typed retained_builds is negative, then it is refused', () => {
    expect(entryOf(() => validateSchemeFields({ name: 'x', retainedBuilds: -1 }, 'create'))).toEqual({ retained_builds: ['must be an integer >= 0'] });
  });
});

describe('channel fields', () => {
  it('when a channel is created with name and device type, then bundle_id is * and nothing else is set', () => {
    expect(validateChannelFields({ name: 'Dev', deviceType: 'Android' }, 'create')).toEqual({ name: 'Dev', deviceType: 'android', bundleId: '*' });
  });
  it('when name and device_type are missing on create, then both are named', () => {
    expect(entryOf(() => validateChannelFields({}, 'create'))).toEqual({ name: ["can't be blank"], device_type: ["can't be blank"] });
  });
  it('when slug, bundle_id and device_type are bad, then each is named', () => {
    const entry = entryOf(() => validateChannelFields({ name: 'x', deviceType: 'tv', slug: 'a b', bundleId: 'com example' }, 'create'));
    expect(Object.keys(entry!).sort()).toEqual(['bundle_id', 'device_type', 'slug']);
  });
  it('when an update sends empty git_url and password, then both are cleared and an empty slug is kept', () => {
    expect(validateChannelFields({ gitUrl: '', password: '', slug: '' }, 'update')).toEqual({ gitUrl: null, password: null });
  });
  it('when an update sends an empty device_type, then it is refused', () => {
    expect(entryOf(() => validateChannelFields({ deviceType: '' }, 'update'))).toEqual({ device_type: ["can't be blank"] });
  });
});

describe('app name and collaborator role', () => {
  it('when the app name is blank or has control characters, then it is refused', () => {
    expect(entryOf(() => validateAppName('  '))).toEqual({ name: ["can't be blank"] });
    expect(entryOf(() => validateAppName('a\nb'))).toEqual({ name: ['must not contain control characters'] });
    expect(validateAppName(' My App ')).toBe('My App');
  });
  it('when the role is unknown or blank, then it is refused; a known role in any case is accepted', () => {
    expect(entryOf(() => validateCollaboratorRole('owner'))).toEqual({ role: ['must be one of member, developer, admin'] });
    expect(entryOf(() => validateCollaboratorRole(''))).toEqual({ role: ["can't be blank"] });
    expect(validateCollaboratorRole('Developer')).toBe('developer');
  });
});
