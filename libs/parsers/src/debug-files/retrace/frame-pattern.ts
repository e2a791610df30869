/**
 * ReTrace's stack-frame pattern: its default expression, with `%c` (class), `%m` (method), `%s`
 * (source file) and `%l` (line number) placeholders, turned into one regular expression that
 * must match the whole line. Java's regex classes are spelled out where JavaScript's differ: `\s`
 * is ASCII whitespace in Java, `.` also stops at U+0085, `\b` looks at Unicode letters and digits.
 */

export interface FrameInfo {
  className: string;
  sourceFile?: string;
  lineNumber: number;
  methodName?: string;
}

/** ReTrace.STACK_TRACE_EXPRESSION of ProGuard 6.2.2. */
export const DEFAULT_EXPRESSION = '(?:.*?\\bat\\s+%c\\.%m\\s*\\(%s(?::%l)?\\)\\s*(?:~\\[.*\\])?)|(?:(?:.*?[:"]\\s+)?%c(?::.*)?)';

const SPACE = '[ \\t\\n\\x0B\\f\\r]';
const NOT_SPACE_OR = (extra: string) => `[^ \\t\\n\\x0B\\f\\r${extra}]`;
const ANY = '[^\\n\\r\\u0085\\u2028\\u2029]';
const WORD = '[\\p{L}\\p{Nd}_]';
const BOUNDARY = `(?:(?<!${WORD})(?=${WORD})|(?<=${WORD})(?!${WORD}))`;

const PLACEHOLDERS: Record<string, string> = {
  c: `(?:${NOT_SPACE_OR('":./()')}+\\.)*${NOT_SPACE_OR('":./()')}+`,
  s: '[^:()]*',
  l: `-?${BOUNDARY}\\d+${BOUNDARY}`,
  m: `<?${NOT_SPACE_OR('":./()')}+>?`,
};

/** A literal part of the expression in JavaScript's spelling: `\s`, `\b` and `.` as Java means them. */
function literal(text: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '\\') {
      const next = text.charAt(++i);
      out += !inClass && next === 's' ? SPACE : !inClass && next === 'b' ? BOUNDARY : `\\${next}`;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else {
      out += c === '.' ? ANY : c;
    }
  }
  return out;
}

export class FramePattern {
  private readonly regex: RegExp;
  private readonly kinds: string[] = [];

  constructor(expression = DEFAULT_EXPRESSION) {
    let source = '';
    let index = 0;
    for (;;) {
      const next = expression.indexOf('%', index);
      if (next < 0 || next === expression.length - 1) break;
      const kind = expression.charAt(next + 1);
      source += `${literal(expression.slice(index, next))}(${PLACEHOLDERS[kind] ?? ''})`;
      this.kinds.push(kind);
      index = next + 2;
    }
    source += literal(expression.slice(index));
    this.regex = new RegExp(`^(?:${source})$`, 'du');
  }

  /** The frame a line names, or undefined when the line is not a frame. */
  parse(line: string): FrameInfo | undefined {
    const match = this.regex.exec(line);
    if (!match) return undefined;
    const frame: FrameInfo = { className: '', lineNumber: 0 };
    this.kinds.forEach((kind, i) => {
      const value = match[i + 1];
      if (value === undefined) return;
      if (kind === 'c') frame.className = value;
      else if (kind === 's') frame.sourceFile = value;
      else if (kind === 'm') frame.methodName = value;
      else if (kind === 'l') frame.lineNumber = javaInt(value);
    });
    return frame;
  }

  /** `line` with each matched placeholder replaced by the frame's value. */
  format(line: string, frame: FrameInfo): string | undefined {
    const match = this.regex.exec(line);
    if (!match?.indices) return undefined;
    let out = '';
    let at = 0;
    this.kinds.forEach((kind, i) => {
      const span = match.indices![i + 1];
      if (!span) return;
      out += line.slice(at, span[0]);
      out += kind === 'c' ? frame.className : kind === 's' ? String(frame.sourceFile) : kind === 'l' ? String(frame.lineNumber) : String(frame.methodName);
      at = span[1];
    });
    return out + line.slice(at);
  }
}

/** Integer.parseInt: a number outside int's range is not a line number ReTrace can read. */
export function javaInt(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value > 2147483647 || value < -2147483648) throw new RangeError(`${text} is not a Java int`);
  return value;
}
