import type { ByteSource } from '../packages/byte-source';
import { DebugFileParseError } from './debug-file-parse.error';
import { withDebugFile } from './debug-source';

/** The identity of a Breakpad symbol file, from its MODULE and INFO CODE_ID records. */
export interface BreakpadModule {
  /** Operating system as dump_syms writes it: Linux, windows, mac, iOS, Android, … */
  os: string;
  arch: string;
  /** The debug id: 32 hex digits of a GUID (or a build-id's first 16 bytes) and the age; uppercase. */
  moduleId: string;
  /** The debug file's name (`app`, `app.pdb`): the first and last segment of the symbol-server path. */
  name: string;
  /** From `INFO CODE_ID <id> [<file>]`, when present. */
  codeId?: string;
}

export const BREAKPAD_MAGIC = Buffer.from('MODULE ', 'latin1');
/** The records Hangar reads live in the first lines; a symbol file may be gigabytes long. */
const HEAD_BYTES = 64 * 1024;

export function isBreakpad(head: Buffer): boolean {
  return head.length >= BREAKPAD_MAGIC.length && head.subarray(0, BREAKPAD_MAGIC.length).equals(BREAKPAD_MAGIC);
}

/**
 * Reads `MODULE <os> <arch> <id> <name>` (the first line, Breakpad's symbol-file format) and an
 * `INFO CODE_ID` line among the first 64 KiB. Only that head is read, whatever the file's size.
 */
export async function readBreakpadModule(file: string | ByteSource): Promise<BreakpadModule> {
  const head = await withDebugFile(file, 'Breakpad symbol file', (reader) => reader.head(HEAD_BYTES));
  const text = head.toString('utf8');
  const firstEnd = text.search(/\r?\n/);
  if (firstEnd < 0) throw new DebugFileParseError('truncated Breakpad symbol file: its MODULE line does not end');
  const match = /^MODULE (\S+) (\S+) ([0-9A-Fa-f]+) (.+)$/.exec(text.slice(0, firstEnd));
  if (!match) throw new DebugFileParseError('a Breakpad MODULE line is "MODULE <os> <arch> <id> <name>"');
  const [, os, arch, id, rawName] = match as unknown as [string, string, string, string, string];
  // 32 hex digits of the GUID, then the age in hex (1 to 8 digits).
  if (id.length < 33 || id.length > 40) throw new DebugFileParseError(`a Breakpad module id has 33 to 40 hex digits, not ${id.length}`);
  const name = rawName.trim();
  if (!name || /[/\\\0]/.test(name) || name === '.' || name === '..') throw new DebugFileParseError('a Breakpad module name is a file name, without a path');
  const codeId = /^INFO CODE_ID ([0-9A-Fa-f]+)(?: \S.*)?\r?$/m.exec(text.slice(firstEnd))?.[1];
  return { os, arch, moduleId: id.toUpperCase(), name, ...(codeId ? { codeId: codeId.toUpperCase() } : {}) };
}
