import { GENERATED_SLUG_LENGTH, generateSlug } from './secrets';
import { isValidSlug } from './fields';

describe('channel secrets', () => {
  it('when slugs are generated, then they are at least 20 base62 characters, valid channel keys, and distinct', () => {
    const slugs = Array.from({ length: 200 }, generateSlug);
    expect(GENERATED_SLUG_LENGTH).toBeGreaterThanOrEqual(20);
    for (const slug of slugs) {
      expect(slug).toMatch(/^[0-9A-Za-z]+$/);
      expect(slug).toHaveLength(GENERATED_SLUG_LENGTH);
      expect(isValidSlug(slug)).toBe(true);
    }
    expect(new Set(slugs).size).toBe(slugs.length);
  });

});
