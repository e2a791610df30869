export { retrace, type MappingLines, type RetraceResult } from './retrace';
export { javaLines, LineTooLongError } from './java-text';
