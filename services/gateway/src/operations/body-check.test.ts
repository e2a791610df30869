import { Type } from '@sinclair/typebox';
import { InvalidArgument } from '@hangar/errors';
import { BodyCheck, REFUSAL } from './body-check';

describe('a declared body checked before its handler', () => {
  const check = new BodyCheck<{ name: string; device_type: string; flag: boolean | string; tags: string[] }>(
    Type.Object({
      name: Type.String(),
      device_type: Type.String({ enum: ['ios', 'android'] }),
      flag: Type.Unsafe<boolean | string>({ type: ['boolean', 'string'], [REFUSAL]: 'must be true or false' }),
      tags: Type.Array(Type.String()),
    }),
  );
  const refusal = (body: unknown): Record<string, string[]> | undefined => {
    try {
      check.read(body);
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidArgument);
      return (error as InvalidArgument).entry;
    }
  };

  it('when the fields have their types, then the declared ones are handed on and the rest left out', () => {
    expect(check.read({ name: 'beta', flag: true, tags: ['a'], token: 'secret', extra: 1 })).toEqual({ name: 'beta', flag: true, tags: ['a'] });
    // A form sends every field as text.
    expect(check.read({ flag: 'false' })).toEqual({ flag: 'false' });
  });

  it('when fields have the wrong types, then every one is named at once, in the words of its type or declaration', () => {
    expect(refusal({ name: 5, flag: [], tags: [{}], device_type: true })).toEqual({
      name: ['must be a string'],
      flag: ['must be true or false'],
      tags: ['must be an array'],
      device_type: ['must be a string'],
    });
  });

  it('when a value is outside what the document lists, then it is left to the service to judge after its permission check', () => {
    expect(check.read({ device_type: 'iOS' })).toEqual({ device_type: 'iOS' });
  });

  it('when a field is null, then it counts as not sent (a form cannot send null)', () => {
    expect(check.read({ name: null, flag: null })).toEqual({});
  });

  it('when text holds U+0000, then it is refused here, not failed in the database', () => {
    expect(refusal({ name: 'a\0b' })).toEqual({ name: ['must not contain NUL characters'] });
  });

  it('when there is no body, then nothing is read', () => {
    expect(check.read(undefined)).toEqual({});
  });
});
