import BinaryXmlParser from 'app-info-parser/src/xml-parser/binary';
import './binary-xml-strings';
import { readVersionInfo } from './version-info';
import { utf16le } from './utf16';

/**
 * Node 24 overflows the heap by one byte when it decodes an odd number of UTF-16 bytes from
 * an odd address (nodejs/node#64697; CI's Node 24 run died of it in hostile-input.property.test.ts).
 * What decodes package bytes as UTF-16 must never ask Node for that: each case records the
 * ranges `Buffer#toString` is asked to decode and checks every one is whole code units.
 */
describe('UTF-16 decoding of package bytes', () => {
  function utf16Ranges(decode: () => unknown): number[] {
    const spy = jest.spyOn(Buffer.prototype, 'toString');
    try {
      decode();
      return spy.mock.calls
        .map((args, i) => ({ args, buffer: spy.mock.contexts[i] as Buffer }))
        .filter(({ args }) => args[0] === 'utf16le' || args[0] === 'ucs2')
        .map(({ args, buffer }) => Math.min(Number(args[2] ?? buffer.length), buffer.length) - Number(args[1] ?? 0));
    } finally {
      spy.mockRestore();
    }
  }

  it('when a range has an odd byte count, then the trailing byte is left out, as Node does on aligned data', () => {
    const data = Buffer.from([0x00, 0x41, 0x00, 0x42, 0x00, 0x43]);
    let text = '';
    expect(utf16Ranges(() => (text = utf16le(data, 1)))).toEqual([4]);
    expect(text).toBe('AB');
    expect(utf16le(data, 4, 99)).toBe('\u4300');
    expect(utf16le(data, 9, 3)).toBe('');
  });

  it("when a binary-XML string runs past the end of its buffer at an odd offset, then app-info-parser's reading decodes whole code units", () => {
    // A 16-bit length of 3 at offset 1, then 5 of the 6 bytes it promises.
    const parser = new BinaryXmlParser(Buffer.from([0x00, 0x03, 0x00, 0x41, 0x00, 0x42, 0x00, 0x43]));
    parser.cursor = 1;
    let text = '';
    expect(utf16Ranges(() => (text = parser.readString('ucs2')))).toEqual([4]);
    expect(text).toBe('AB');
  });

  it('when a version resource holds an odd-length value at an odd offset, then its text is read from whole code units', () => {
    const block = (key: string, value: Buffer, type: number, children: Buffer[] = []) => {
      const keyBytes = Buffer.from(`${key}\0`, 'utf16le');
      const head = Buffer.alloc(6);
      const pad = (b: Buffer) => Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4)]);
      const body = Buffer.concat([pad(Buffer.concat([head, keyBytes])), value, ...children.map(pad)]);
      head.writeUInt16LE(body.length, 0);
      head.writeUInt16LE(type === 1 ? Math.ceil(value.length / 2) : value.length, 2);
      head.writeUInt16LE(type, 4);
      return Buffer.concat([pad(Buffer.concat([head, keyBytes])), value, ...children.map(pad)]);
    };
    // "Hi" and one stray byte: an odd-length value.
    const text = block('CompanyName', Buffer.from([0x48, 0x00, 0x69, 0x00, 0x21]), 1);
    const root = block('VS_VERSION_INFO', Buffer.alloc(0), 0, [block('StringFileInfo', Buffer.alloc(0), 1, [block('040904b0', Buffer.alloc(0), 1, [text])])]);
    let info: ReturnType<typeof readVersionInfo>;
    const ranges = utf16Ranges(() => (info = readVersionInfo(root)));
    expect(ranges.every((bytes) => bytes % 2 === 0)).toBe(true);
    expect(info!.strings['CompanyName']).toBe('Hi');
  });
});
