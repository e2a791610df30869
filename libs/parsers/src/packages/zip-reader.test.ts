import { BufferByteSource, storedZip } from '@hangar/testing';
import { PackageParseError } from './package.errors';
import { ZipArchive, ZipFormatError } from './zip-reader';

describe('ZipArchive, the one zip reader of packages and debug files', () => {
  it('when a name is listed twice, then each listed entry reads its own bytes and the name reads the last', async () => {
    const zip = await ZipArchive.open(new BufferByteSource(storedZip([{ name: 'a.txt', data: 'first' }, { name: 'a.txt', data: 'second, longer' }])), 1024);
    try {
      const [first, second] = zip.entries;
      expect((await zip.read(first!)).toString()).toBe('first');
      expect((await zip.read(second!)).toString()).toBe('second, longer');
      expect((await zip.read('a.txt')).toString()).toBe('second, longer');
      expect((await zip.readHead(first!, 3)).toString()).toBe('fir');
    } finally {
      zip.close();
    }
  });

  it('when the end record lists more entries than allowed, then it is refused before listing, as the reader\'s own refusal', async () => {
    const bytes = storedZip(Array.from({ length: 5 }, (_, i) => ({ name: `${i}.txt`, data: 'x' })));
    const error = await ZipArchive.open(new BufferByteSource(bytes), 1024, 4).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ZipFormatError);
    expect(error).toBeInstanceOf(PackageParseError);
    expect((error as ZipFormatError).message).toBe('zip: the archive lists 5 entries, more than the 4 allowed');
    expect((error as ZipFormatError).cause).toBeUndefined();
  });

  it('when the bytes are no zip, then the damage yauzl found is the cause', async () => {
    const error = await ZipArchive.open(new BufferByteSource(Buffer.from('not a zip at all, not even close')), 1024).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ZipFormatError);
    expect((error as ZipFormatError).message).toMatch(/^zip: corrupt or truncated archive/);
    expect((error as ZipFormatError).cause).toBeInstanceOf(Error);
  });
});
