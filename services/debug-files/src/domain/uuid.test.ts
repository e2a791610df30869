import { InvalidArgument } from '@hangar/errors';
import { normalizeUuid } from './uuid';

describe('normalizeUuid', () => {
  it.each([
    ['EA9BBF2D-BFDD-3CE0-85B2-1CBE7152FCA5'],
    ['ea9bbf2dbfdd3ce085b21cbe7152fca5'],
    ['{ea9bbf2d-bfdd-3ce0-85b2-1cbe7152fca5}'],
    [' ea9bbf2d-bfdd-3ce0-85b2-1cbe7152fca5 '],
  ])('when %s is given, then it becomes the stored lowercase dashed form', (input) => {
    expect(normalizeUuid(input)).toBe('ea9bbf2d-bfdd-3ce0-85b2-1cbe7152fca5');
  });

  it.each([['not-a-uuid'], ['ea9bbf2d-bfdd-3ce0-85b2-1cbe7152fca'], ['ga9bbf2d-bfdd-3ce0-85b2-1cbe7152fca5']])('when %s is given, then 422', (input) => {
    expect(() => normalizeUuid(input)).toThrow(InvalidArgument);
  });
});
