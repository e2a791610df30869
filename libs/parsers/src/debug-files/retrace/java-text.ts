/**
 * The few pieces of Java's text handling that ProGuard's ReTrace relies on, so Hangar's retrace
 * answers exactly what `proguard-retrace.jar` prints for the same mapping and trace.
 */

/** String.trim(): strips every char up to U+0020 at both ends, and nothing else (not U+00A0). */
export function javaTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

const IDENTIFIER_PART = /[\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}\p{Sc}\p{Cf}\u0000-\u0008\u000e-\u001b\u007f-\u009f]/u;
const WHITESPACE = /[\t\n\u000b\f\r\u001c-\u001f\u0020\u1680\u2000-\u2006\u2008-\u200a\u2028\u2029\u205f\u3000]/;

/** Character.isJavaIdentifierPart for one UTF-16 unit (ReTrace tests chars, not code points). */
export const isJavaIdentifierPart = (unit: string): boolean => IDENTIFIER_PART.test(unit);

/** Character.isWhitespace: Unicode spaces except the no-break ones, and the ASCII separators. */
export const isJavaWhitespace = (unit: string): boolean => WHITESPACE.test(unit);

/**
 * Lines as BufferedReader.readLine splits them (at \n, \r or \r\n; no empty last line after a
 * final terminator), decoded as UTF-8 with bad bytes replaced, as Java's readers do. A line longer
 * than `maxLineChars` throws rather than growing without bound.
 */
export async function* javaLines(chunks: AsyncIterable<Buffer | string>, maxLineChars: number): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let pending = '';
  let skipLf = false;
  const take = function* (text: string, final: boolean): Generator<string> {
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a && skipLf && i === start && pending === '') {
        skipLf = false;
        start = i + 1;
        continue;
      }
      skipLf = false;
      if (c === 0x0a || c === 0x0d) {
        yield pending + text.slice(start, i);
        pending = '';
        start = i + 1;
        skipLf = c === 0x0d;
      }
    }
    pending += text.slice(start);
    if (pending.length > maxLineChars) throw new LineTooLongError(maxLineChars);
    if (final && pending !== '') {
      yield pending;
      pending = '';
    }
  };
  for await (const chunk of chunks) yield* take(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }), false);
  yield* take(decoder.decode(), true);
}

export class LineTooLongError extends Error {
  constructor(readonly maxLineChars: number) {
    super(`a line is longer than ${maxLineChars} characters`);
  }
}
