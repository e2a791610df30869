import { PeFormatError, readPeHeaders } from '../formats/pe.reader';
import type { ByteSource } from '../packages/byte-source';
import { DebugFileParseError } from './debug-file-parse.error';
import { withDebugFile } from './debug-source';

export { isPe } from '../formats/pe.reader';

/** A PE image's identity on a Microsoft symbol server: `<file>/<TimeDateStamp><SizeOfImage>/<file>`. */
export interface PeCodeId {
  timeDateStamp: number;
  sizeOfImage: number;
  /** `%08X%x`: the stamp as 8 uppercase hex digits, then SizeOfImage in hex (symstore's form). */
  codeId: string;
  machine: string;
}

const MACHINES: Record<number, string> = { 0x14c: 'x86', 0x8664: 'x86_64', 0x1c4: 'arm', 0xaa64: 'arm64' };

/** Reads the COFF and optional headers only (a few hundred bytes by position). */
export function readPeCodeId(file: string | ByteSource): Promise<PeCodeId> {
  return withDebugFile(file, 'PE file', async (reader) => {
    try {
      const { machine, timeDateStamp, sizeOfImage } = await readPeHeaders({ read: (offset, length) => reader.read(offset, length, 'its headers') }, reader.size);
      if (sizeOfImage === 0) throw new DebugFileParseError('a PE image of SizeOfImage 0');
      return {
        timeDateStamp,
        sizeOfImage,
        codeId: `${timeDateStamp.toString(16).toUpperCase().padStart(8, '0')}${sizeOfImage.toString(16).toUpperCase()}`,
        machine: MACHINES[machine] ?? `machine-${machine.toString(16)}`,
      };
    } catch (error) {
      if (error instanceof PeFormatError) throw new DebugFileParseError(error.message, { cause: error });
      throw error;
    }
  });
}
