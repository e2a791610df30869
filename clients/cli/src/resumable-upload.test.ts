import { uploadIdOf, uploadsEndpoint } from './resumable-upload';

describe('resumable upload addresses', () => {
  it('when the final upload URL is known, then upload_id is its last path segment, query and trailing slash ignored', () => {
    expect(uploadIdOf('http://127.0.0.1:8080/api/uploads/3f9a2c')).toBe('3f9a2c');
    expect(uploadIdOf('https://h.example.com/api/uploads/abc%2Bdef/?x=1')).toBe('abc+def');
    expect(uploadsEndpoint('https://h.example.com')).toBe('https://h.example.com/api/uploads');
  });

  it('when a URL has no path segment, then it is refused rather than sent as an empty id', () => {
    expect(() => uploadIdOf('https://h.example.com/')).toThrow(/without an id/);
  });
});
