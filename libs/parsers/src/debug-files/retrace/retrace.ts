import { FrameInfo, FramePattern } from './frame-pattern';
import { isJavaIdentifierPart, isJavaWhitespace } from './java-text';
import { MethodLine, classify, readClassLine, readMethodLine } from './mapping-reader';

/** Opens the mapping's lines from the start; called once per pass. */
export type MappingLines = () => AsyncIterable<string>;

export interface RetraceResult {
  /** The deobfuscated trace, one `\n`-terminated line per output line, as ReTrace prints it. */
  text: string;
}

/**
 * ProGuard 6.2.2 ReTrace's answer for `trace` (its default pattern, not verbose), reading the
 * mapping in two streamed passes and keeping only what the trace needs: the class lines of the
 * obfuscated names it mentions, then the method lines of those classes. Two passes because ReTrace
 * looks methods up by the original class name, which is known only once every class line has been
 * read (the last line for an obfuscated name wins, and members of every block with that original
 * name count). Memory: the trace and the mapping lines of its classes, whatever the mapping's size.
 */
export async function retrace(trace: string, mappingLines: MappingLines, pattern = new FramePattern()): Promise<RetraceResult> {
  const lines = traceLines(trace);
  const frames = lines.map((line) => ({ line, frame: parseFrame(pattern, line) }));
  const mentioned = new Set(frames.flatMap(({ frame }) => (frame ? [frame.className] : [])));

  const classMap = new Map<string, string>();
  for await (const raw of mappingLines()) {
    const entry = classify(raw);
    if (entry?.kind !== 'class') continue;
    const names = readClassLine(entry.line);
    if (names && mentioned.has(names.obfuscated)) classMap.set(names.obfuscated, names.original);
  }

  const originalOf = (name: string) => classMap.get(name) ?? name;
  const wanted = new Set([...mentioned].map(originalOf));
  const methods = new Map<string, Map<string, MethodLine[]>>();
  let current: string | undefined;
  for await (const raw of mappingLines()) {
    const entry = classify(raw);
    if (!entry) continue;
    if (entry.kind === 'class') {
      current = readClassLine(entry.line)?.original;
      continue;
    }
    if (current === undefined || !wanted.has(current)) continue;
    const method = readMethodLine(entry.line);
    if (!method) continue;
    const byName = methods.get(current) ?? new Map<string, MethodLine[]>();
    methods.set(current, byName);
    byName.set(method.obfuscatedName, [...(byName.get(method.obfuscatedName) ?? []), { ...method, originalClassName: method.originalClassName || current }]);
  }

  let text = '';
  for (const { line, frame } of frames) {
    if (!frame) {
      text += `${line}\n`;
      continue;
    }
    let previous: string | undefined;
    for (const original of transform(frame, originalOf(frame.className), methods)) {
      const formatted = pattern.format(line, original)!;
      const shown = previous !== undefined && frame.lineNumber === 0 ? trimCommonStart(formatted, previous) : formatted;
      if (shown !== undefined) text += `${shown}\n`;
      previous = formatted;
    }
  }
  return { text };
}

/** A frame, or none for a line ReTrace leaves alone — also one whose line number is no Java int (ReTrace would stop there). */
function parseFrame(pattern: FramePattern, line: string): FrameInfo | undefined {
  try {
    return pattern.parse(line);
  } catch {
    return undefined;
  }
}

/** BufferedReader.readLine over the whole trace: \n, \r or \r\n end a line; no empty last line. */
function traceLines(trace: string): string[] {
  const lines = trace.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** FrameRemapper.transform: every method the name and line can be, else the class renamed. */
function transform(frame: FrameInfo, originalClassName: string, methods: Map<string, Map<string, MethodLine[]>>): FrameInfo[] {
  const found: FrameInfo[] = [];
  const candidates = frame.methodName === undefined ? undefined : methods.get(originalClassName)?.get(frame.methodName);
  for (const method of candidates ?? []) {
    const line = frame.lineNumber;
    // Unknown values are 0 and match anything, as in ReTrace.
    if (line !== 0 && method.obfuscatedLastLine !== 0 && !(method.obfuscatedFirstLine <= line && line <= method.obfuscatedLastLine)) continue;
    let lineNumber = line;
    if (method.originalFirstLine !== method.obfuscatedFirstLine) {
      lineNumber =
        method.originalLastLine !== 0 && method.originalLastLine !== method.originalFirstLine && method.obfuscatedFirstLine !== 0 && lineNumber !== 0
          ? method.originalFirstLine - method.obfuscatedFirstLine + lineNumber
          : method.originalFirstLine;
    }
    found.push({ className: method.originalClassName, sourceFile: sourceFileName(method.originalClassName), lineNumber, methodName: method.originalName });
  }
  if (found.length === 0) found.push({ ...frame, className: originalClassName, sourceFile: sourceFileName(originalClassName) });
  return found;
}

/** `a.b.Outer$Inner` → `Outer.java`, ReTrace's guess at a class's source file. */
function sourceFileName(className: string): string {
  const start = className.lastIndexOf('.') + 1;
  const dollar = className.indexOf('$', start);
  return `${dollar > 0 ? className.slice(start, dollar) : className.slice(start)}.java`;
}

/**
 * ReTrace's presentation of ambiguous alternatives: the start a line shares with the previous
 * one blanked out (back to the start of an identifier); a line equal to the previous is dropped.
 */
function trimCommonStart(line: string, previous: string): string | undefined {
  let end = 0;
  while (end < line.length && end < previous.length && line.charAt(end) === previous.charAt(end)) end++;
  if (end === line.length) return undefined;
  while (end >= 0 && isJavaIdentifierPart(line.charAt(end))) end--;
  end += 1;
  let out = '';
  for (let i = 0; i < line.length; i++) out += i < end && !isJavaWhitespace(line.charAt(i)) ? ' ' : line.charAt(i);
  return out;
}
