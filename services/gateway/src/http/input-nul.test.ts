import type { Request } from 'express';
import { InvalidArgument } from '@hangar/errors';
import { queryText, readTextFields } from './input';

// PostgreSQL's jsonb cannot hold U+0000: under the default engine such a value
// reached the database and came back as a 500 (found by the hostile-input test).
describe('text input holding NUL', () => {
  it('when a query parameter holds NUL, then it is refused as invalid, naming it', () => {
    const req = { query: { build_version: 'a\0b' } } as unknown as Request;
    expect(() => queryText(req, 'build_version')).toThrow(InvalidArgument);
    try {
      queryText(req, 'build_version');
    } catch (err) {
      expect((err as InvalidArgument).entry).toEqual({ build_version: ['must not contain NUL characters'] });
    }
  });

  it('when a body field holds NUL, then it is refused with the other bad fields', () => {
    expect(() => readTextFields({ name: 'x\0', branch: 3 }, ['name', 'branch'])).toThrow(/name, branch/);
  });

  it('when text holds no NUL, then it passes unchanged', () => {
    const req = { query: { build_version: 'é9' } } as unknown as Request;
    expect(queryText(req, 'build_version')).toBe('é9');
    expect(readTextFields({ name: 'ok' }, ['name'])).toEqual({ name: 'ok' });
  });
});
