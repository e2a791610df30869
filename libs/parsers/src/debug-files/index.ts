export type { DebugFileLimits, DebugSymbolEntry, ParsedDebugFile } from './debug-file.types';
export { DEFAULT_DEBUG_FILE_LIMITS } from './debug-file.types';
export { DebugFileParseError, InflationLimitError } from './debug-file-parse.error';
export { parseDebugFile } from './parse-debug-file';
export { isElf, readElfIdentity, type ElfIdentity } from './elf.reader';
export { isBreakpad, readBreakpadModule, type BreakpadModule } from './breakpad.reader';
export { isPdb, readPdbIdentity, type PdbIdentity } from './pdb.reader';
export { isPe, readPeCodeId, type PeCodeId } from './pe-code-id.reader';
export { retrace, javaLines, LineTooLongError, type MappingLines, type RetraceResult } from './retrace';
