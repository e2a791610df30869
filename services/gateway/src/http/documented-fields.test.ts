import { checkDocumentedFields } from './documented-fields';

const refusal = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    return { status: (err as { code?: string }).code, entry: (err as { entry?: unknown }).entry };
  }
  return undefined;
};

describe('checkDocumentedFields', () => {
  it('when a JSON array or object comes where the document gives text, or token is not text, then one 422 names every such field', () => {
    expect(refusal(() => checkDocumentedFields('createTeardown', 'application/json', { token: ['a'] }))).toEqual({ status: 'invalid_argument', entry: { token: ['must be a string'] } });
    expect(refusal(() => checkDocumentedFields('createApp', 'application/json', { name: [[]], token: 5 }))).toEqual({
      status: 'invalid_argument',
      entry: { name: ['must be a string'], token: ['must be a string'] },
    });
    expect(refusal(() => checkDocumentedFields('createUser', 'application/json', { username: 'typed', email: 42, password: ['x'] }))?.entry).toEqual({
      email: ['must be a string'],
      password: ['must be a string'],
    });
    expect(refusal(() => checkDocumentedFields('createChannel', 'application/x-www-form-urlencoded', { name: 'Beta', device_type: { a: 1 } }))).toEqual({
      status: 'invalid_argument',
      entry: { device_type: ['must be a string'] },
    });
  });

  it("when the types fit, or the field is not documented, or the request is no operation's, then nothing is refused", () => {
    expect(refusal(() => checkDocumentedFields('createApp', 'application/json', { name: 'x', other: { deep: [1] }, token: 'hgr_x' }))).toBeUndefined();
    expect(refusal(() => checkDocumentedFields('createWebhook', 'application/json', { url: 'https://x', events: ['release.created'] }))).toBeUndefined();
    expect(refusal(() => checkDocumentedFields('createWebhook', 'application/json', { events: [['release.created']] }))?.entry).toEqual({ events: ['must be an array of scalars'] });
    expect(refusal(() => checkDocumentedFields('createScheme', 'application/json', { name: 'Beta', retained_builds: 3, new_build_callout: false }))).toBeUndefined();
    expect(refusal(() => checkDocumentedFields('createScheme', 'application/json', { retained_builds: [3] }))?.entry).toEqual({ retained_builds: ['must be an integer or a string'] });
    expect(refusal(() => checkDocumentedFields(undefined, 'application/json', { name: [] }))).toBeUndefined();
  });

  it('when an object comes where the document gives an array, then the refusal names the type with the article it is said with', () => {
    expect(refusal(() => checkDocumentedFields('createWebhook', 'application/json', { events: { created: true } }))?.entry).toEqual({ events: ['must be an array or a string'] });
  });
});
