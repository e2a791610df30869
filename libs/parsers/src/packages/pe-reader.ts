import { readPeHeaders, readPeSections } from '../formats/pe.reader';
import { PackageParseError } from './package.errors';
import type { PositionalReader } from './byte-source';

const RESOURCE_DIRECTORY_INDEX = 2;

const MACHINES: Record<number, string> = { 0x14c: 'x86', 0x8664: 'x64', 0xaa64: 'arm64', 0x1c4: 'arm' };

export interface PeResources {
  architecture: string;
  /** Data of every resource leaf of the given type, in directory order. */
  ofType(type: number): Buffer[];
}

/**
 * Reads the PE headers and the section holding the resource directory, and nothing else (an
 * installer's payload can be gigabytes, usually in an overlay after the last section). A broken
 * header's PeFormatError becomes a PackageParseError in parsePackage, as any decoder's error does.
 */
export async function readPeResources(file: PositionalReader, maxSectionSize: number): Promise<PeResources> {
  const headers = await readPeHeaders(file, file.size);
  const architecture = MACHINES[headers.machine] ?? `machine-0x${headers.machine.toString(16)}`;
  const resourceRva = headers.directoryRva(RESOURCE_DIRECTORY_INDEX);
  if (resourceRva === 0) return { architecture, ofType: () => [] };

  const sections = await readPeSections(file, file.size, headers);
  const section = sections.find((s) => resourceRva >= s.virtualAddress && resourceRva < s.virtualAddress + Math.max(s.virtualSize, s.rawSize));
  if (!section) throw new PackageParseError('exe: resource directory points outside every section');
  if (section.rawSize > maxSectionSize) throw new PackageParseError(`exe: resource section of ${section.rawSize} bytes is above the ${maxSectionSize}-byte limit`);
  const data = await file.read(section.rawOffset, Math.min(section.rawSize, file.size - section.rawOffset));
  const base = resourceRva - section.virtualAddress;

  const leaves = (type: number): Buffer[] => {
    const out: Buffer[] = [];
    const typeDir = findEntry(data, base, base, type);
    if (typeDir === undefined) return out;
    // Two more levels (name, language) lead to IMAGE_RESOURCE_DATA_ENTRY records.
    for (const nameDir of directoryEntries(data, base, typeDir)) {
      for (const leaf of directoryEntries(data, base, nameDir)) {
        if (leaf + 8 > data.length) continue;
        const rva = data.readUInt32LE(leaf);
        const size = data.readUInt32LE(leaf + 4);
        const start = rva - section.virtualAddress;
        if (start >= 0 && start + size <= data.length) out.push(data.subarray(start, start + size));
      }
    }
    return out;
  };
  return { architecture, ofType: leaves };
}

/** Offsets (relative to the section) of the children of a resource directory. */
function directoryEntries(data: Buffer, base: number, dirOffset: number): number[] {
  if (dirOffset + 16 > data.length) return [];
  const count = data.readUInt16LE(dirOffset + 12) + data.readUInt16LE(dirOffset + 14);
  const children: number[] = [];
  for (let i = 0; i < count && dirOffset + 16 + i * 8 + 8 <= data.length; i++) {
    const target = data.readUInt32LE(dirOffset + 16 + i * 8 + 4);
    children.push(base + (target & 0x7fffffff));
  }
  return children.slice(0, 4096);
}

function findEntry(data: Buffer, base: number, dirOffset: number, id: number): number | undefined {
  if (dirOffset + 16 > data.length) return undefined;
  const named = data.readUInt16LE(dirOffset + 12);
  const count = named + data.readUInt16LE(dirOffset + 14);
  for (let i = named; i < count && dirOffset + 16 + i * 8 + 8 <= data.length; i++) {
    if (data.readUInt32LE(dirOffset + 16 + i * 8) === id) return base + (data.readUInt32LE(dirOffset + 16 + i * 8 + 4) & 0x7fffffff);
  }
  return undefined;
}
