import { javaTrim } from './java-text';

/**
 * ProGuard's mapping.txt read line by line the way ProGuard 6.2.2's MappingReader reads it, so
 * that the same quirks give the same answers: `#` lines skipped, a trimmed line ending in `:` is
 * a class line, a member line belongs to the last class line (none after a class line it could
 * not read), an inlined frame's `Original.Class.method` names its class, R8's `:origin` line
 * numbers shift the obfuscated range.
 */

export interface ClassLine {
  original: string;
  obfuscated: string;
}

export interface MethodLine {
  /** The class the code came from: the enclosing class, or the one an inlined frame names. */
  originalClassName: string;
  obfuscatedFirstLine: number;
  obfuscatedLastLine: number;
  originalFirstLine: number;
  originalLastLine: number;
  originalName: string;
  obfuscatedName: string;
}

/** `a.b.C -> x.y:`, or undefined when ProGuard would not read it (then its members are ignored). */
export function readClassLine(line: string): ClassLine | undefined {
  const arrow = line.indexOf('->');
  if (arrow < 0) return undefined;
  const colon = line.indexOf(':', arrow + 2);
  if (colon < 0) return undefined;
  return { original: javaTrim(line.slice(0, arrow)), obfuscated: javaTrim(line.slice(arrow + 2, colon)) };
}

/**
 * A method line (`[a:b:]type [Class.]name(args)[:c[:d]] -> new`), or undefined for a field line
 * or one ProGuard skips. A number ProGuard cannot parse makes it throw; here the line is skipped
 * (RangeError), which the caller turns into a refusal.
 */
export function readMethodLine(line: string): MethodLine | undefined {
  const colon1 = line.indexOf(':');
  const colon2 = colon1 < 0 ? -1 : line.indexOf(':', colon1 + 1);
  const space = line.indexOf(' ', colon2 + 2);
  const args1 = line.indexOf('(', space + 1);
  const args2 = args1 < 0 ? -1 : line.indexOf(')', args1 + 1);
  const colon3 = args2 < 0 ? -1 : line.indexOf(':', args2 + 1);
  const colon4 = colon3 < 0 ? -1 : line.indexOf(':', colon3 + 1);
  const arrow = line.indexOf('->', (colon4 >= 0 ? colon4 : colon3 >= 0 ? colon3 : args2 >= 0 ? args2 : space) + 1);
  if (space < 0 || arrow < 0) return undefined;

  const type = javaTrim(line.slice(colon2 + 1, space));
  let name = javaTrim(line.slice(space + 1, args1 >= 0 ? args1 : arrow));
  const obfuscatedName = javaTrim(line.slice(arrow + 2));
  let originalClassName = '';
  const dot = name.lastIndexOf('.');
  if (dot >= 0) {
    originalClassName = name.slice(0, dot);
    name = name.slice(dot + 1);
  }
  if (!type || !name || !obfuscatedName || args2 < 0) return undefined;

  let first = 0;
  let last = 0;
  let obfuscatedFirst = 0;
  let obfuscatedLast = 0;
  if (colon2 >= 0) {
    first = obfuscatedFirst = parseJavaInt(line.slice(0, colon1));
    last = obfuscatedLast = parseJavaInt(line.slice(colon1 + 1, colon2));
  }
  if (colon3 >= 0) {
    first = parseJavaInt(line.slice(colon3 + 1, colon4 > 0 ? colon4 : arrow));
    last = colon4 < 0 ? first : parseJavaInt(line.slice(colon4 + 1, arrow));
  }
  return { originalClassName, obfuscatedFirstLine: obfuscatedFirst, obfuscatedLastLine: obfuscatedLast, originalFirstLine: first, originalLastLine: last, originalName: name, obfuscatedName };
}

/** Integer.parseInt of a trimmed slice: an optional sign and ASCII digits, within int's range. */
function parseJavaInt(text: string): number {
  const trimmed = javaTrim(text);
  if (!/^[+-]?\d+$/.test(trimmed)) throw new RangeError(`not a number: ${trimmed}`);
  const value = Number(trimmed);
  if (value > 2147483647 || value < -2147483648) throw new RangeError(`not a Java int: ${trimmed}`);
  return value;
}

export type MappingLine = { kind: 'class'; line: string } | { kind: 'member'; line: string };

/** Drops comments and blank-after-trim lines' kinds the way MappingReader.pump sorts them. */
export function classify(rawLine: string): MappingLine | undefined {
  const line = javaTrim(rawLine);
  if (line.startsWith('#')) return undefined;
  return line.endsWith(':') ? { kind: 'class', line } : { kind: 'member', line };
}
