export type { DebugFileLimits, DebugSymbolEntry, ParsedDebugFile } from './debug-file.types';
export { DEFAULT_DEBUG_FILE_LIMITS } from './debug-file.types';
export { DebugFileParseError } from './debug-file-parse.error';
export { parseDebugFile } from './parse-debug-file';
