import { ForwardReader, TruncatedInputError } from './forward.reader';

function chunked(bytes: Buffer, size: number): AsyncIterable<Buffer> {
  return (async function* () {
    for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
  })();
}

const data = Buffer.from(Array.from({ length: 100 }, (_, i) => i));

describe('ForwardReader', () => {
  it('when reads span chunk boundaries and skip whole chunks, then each returns exactly the requested bytes', async () => {
    const reader = new ForwardReader(chunked(data, 7));

    expect([...(await reader.read(0, 4))]).toEqual([0, 1, 2, 3]);
    expect([...(await reader.read(2, 10))]).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect([...(await reader.read(50, 3))]).toEqual([50, 51, 52]);
    expect([...(await reader.read(97, 3))]).toEqual([97, 98, 99]);
  });

  it('when a read goes past the end of the stream, then it fails as truncated', async () => {
    const reader = new ForwardReader(chunked(data, 16));

    await expect(reader.read(90, 20)).rejects.toThrow(TruncatedInputError);
  });

  it('when a read asks for bytes already dropped, then it refuses instead of returning wrong data', async () => {
    const reader = new ForwardReader(chunked(data, 16));
    await reader.read(40, 2);

    await expect(reader.read(10, 2)).rejects.toThrow(RangeError);
  });

  it('when closed early, then the source is not read any further', async () => {
    let pulled = 0;
    const source = (async function* () {
      for (let i = 0; i < 10; i++) {
        pulled++;
        yield Buffer.alloc(10, i);
      }
    })();
    const reader = new ForwardReader(source);
    await reader.read(0, 5);

    await reader.close();

    expect(pulled).toBe(1);
  });
});
