import { alignedParts, uploadIdOf, uploadsEndpoint } from './resumable-upload';

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

describe('parallel parts, cut on the gateway\'s S3 part size', () => {
  const MiB = 1024 * 1024;
  const sizes = (parts: { start: number; end: number }[]) => parts.map((p) => (p.end - p.start) / MiB);

  it('when a file is cut into parts, then each but the last is whole 8 MiB blocks, they cover the file in order, and the blocks are shared out evenly', () => {
    expect(sizes(alignedParts(256 * MiB, 4))).toEqual([64, 64, 64, 64]);
    expect(sizes(alignedParts(50 * MiB, 4))).toEqual([16, 16, 8, 10]);
    const odd = 24 * MiB + 13;
    const three = alignedParts(odd, 3);
    expect(three.map((p) => p.start)).toEqual([0, 8 * MiB, 16 * MiB]);
    expect(three.at(-1)!.end).toBe(odd);
  });

  it('when the file has fewer whole blocks than parts asked for, then each block is a part and the rest the last', () => {
    expect(sizes(alignedParts(12 * MiB, 4))).toEqual([8, 4]);
    expect(sizes(alignedParts(7 * MiB, 4))).toEqual([7]);
    expect(alignedParts(0, 3)).toEqual([{ start: 0, end: 0 }]);
  });
});
