import BinaryXmlParser from 'app-info-parser/src/xml-parser/binary';
import { utf16le } from './utf16';

/**
 * app-info-parser decodes a binary-XML string pool's UTF-16 strings with
 * `buffer.toString('ucs2', cursor, cursor + 2 * length)`. A hostile manifest
 * puts that at an odd offset and past the end of the buffer, which Node clamps
 * to an odd byte count: the Node 24 heap overflow `utf16le` (./utf16.ts) avoids.
 * The same reading, through `utf16le`. Installed once, on import (apk.parser.ts).
 */
const readString = BinaryXmlParser.prototype.readString;
BinaryXmlParser.prototype.readString = function (this: BinaryXmlParser, encoding: string): string {
  if (encoding !== 'ucs2') return readString.call(this, encoding);
  const length = this.readLength16(encoding);
  const start = this.cursor;
  this.cursor += length * 2;
  return utf16le(this.buffer, start, this.cursor);
};
