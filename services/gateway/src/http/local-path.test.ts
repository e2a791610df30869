import { localPath } from './local-path';

describe('where a form or a link may send the browser on to', () => {
  it('when the path is one of this site, then it is kept', () => {
    expect(localPath('/releases/12')).toBe('/releases/12');
    expect(localPath('/channels/abc?page=2')).toBe('/channels/abc?page=2');
  });

  it('when it names another site, is no path or holds spaces, then it is refused', () => {
    for (const value of ['//evil.example', '/\\evil.example', 'https://evil.example/', 'releases/12', '/a b', '', undefined, 12, ['/x']]) {
      expect(localPath(value)).toBeUndefined();
    }
  });
});
