import { PackageParseError } from './package.errors';
import type { PositionalReader } from './byte-source';

export interface ArMember {
  name: string;
  offset: number;
  size: number;
}

const GLOBAL_HEADER = 8;
const MEMBER_HEADER = 60;

/** Lists the members of a Unix `ar` archive (the outer layer of a .deb) from their headers only. */
export async function listArMembers(file: PositionalReader, maxMembers = 64): Promise<ArMember[]> {
  const members: ArMember[] = [];
  let offset = GLOBAL_HEADER;
  while (offset + MEMBER_HEADER <= file.size && members.length < maxMembers) {
    const header = await file.read(offset, MEMBER_HEADER);
    if (header.toString('latin1', 58, 60) !== '`\n') throw new PackageParseError(`ar: bad member header at offset ${offset}`);
    const name = header.toString('latin1', 0, 16).trim().replace(/\/$/, '');
    const size = Number.parseInt(header.toString('latin1', 48, 58).trim(), 10);
    if (!Number.isSafeInteger(size) || size < 0) throw new PackageParseError(`ar: bad size for member "${name}"`);
    const dataOffset = offset + MEMBER_HEADER;
    if (dataOffset + size > file.size) throw new PackageParseError(`ar: member "${name}" runs past the end of the file (truncated?)`);
    members.push({ name, offset: dataOffset, size });
    // Members are padded to an even offset.
    offset = dataOffset + size + (size % 2);
  }
  return members;
}
