import { withArticle } from './wording';

describe('withArticle', () => {
  it('when a platform or a JSON type is named, then it has the article it is said with', () => {
    expect(['iOS', 'Android', 'macOS', 'Windows', 'Linux'].map(withArticle)).toEqual(['an iOS', 'an Android', 'a macOS', 'a Windows', 'a Linux']);
    expect(['array', 'object', 'string', 'integer', 'boolean', 'number'].map(withArticle)).toEqual(['an array', 'an object', 'a string', 'an integer', 'a boolean', 'a number']);
  });
});
