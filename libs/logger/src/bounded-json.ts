/**
 * Caller input walked or written out without trusting its shape: `JSON.stringify` of a
 * body nested 20,000 deep throws `RangeError: Maximum call stack size exceeded`, and did so in the
 * gateway's audit middleware after the answer, outside any handler, taking the process down.
 * Everything that serialises or walks caller input goes through these two: neither recurses,
 * neither throws, and both do work bounded by their limits.
 */

/** Deepest nesting of objects and arrays any request body or query may have (a body deeper is a 400). */
export const MAX_INPUT_DEPTH = 32;

/**
 * Whether `value` nests objects or arrays deeper than `limit` (a scalar is depth 0, `{}` and `[]`
 * depth 1). Iterative, and it stops at the first branch past the limit.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

export interface BoundedJsonLimits {
  /** Objects and arrays below this depth are written as "[…]". Default 8. */
  maxDepth?: number;
  /** Entries of one object or array past this are left out (a "…" entry says so). Default 100. */
  maxEntries?: number;
  /** The text is cut to this many characters, ending in "…". Default 10,000. */
  maxChars?: number;
}

/**
 * JSON text of any value, bounded: depth, entries per level and length limited, cycles, functions,
 * symbols and bigints written as text, getters and `toJSON` never called. Never throws.
 */
export function boundedJson(value: unknown, limits: BoundedJsonLimits = {}): string {
  const maxDepth = limits.maxDepth ?? 8;
  const maxEntries = limits.maxEntries ?? 100;
  const maxChars = limits.maxChars ?? 10_000;
  let text: string;
  try {
    text = JSON.stringify(copyOf(value, 0, maxDepth, maxEntries, new Set())) ?? 'null';
  } catch {
    text = '"[unserialisable]"';
  }
  return text.length > maxChars ? `${text.slice(0, Math.max(0, maxChars - 1))}…` : text;
}

/** A plain copy within the limits; recursion is bounded by maxDepth, not by the input. */
function copyOf(value: unknown, depth: number, maxDepth: number, maxEntries: number, seen: Set<object>): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object') return value === undefined ? null : `[${typeof value}]`;
  if (depth >= maxDepth) return '[…]';
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      const out = value.slice(0, maxEntries).map((item) => copyOf(item, depth + 1, maxDepth, maxEntries, seen));
      if (value.length > maxEntries) out.push('…');
      return out;
    }
    // No prototype: a `__proto__` key of parsed JSON stays a key.
    const out: Record<string, unknown> = Object.create(null);
    const keys = Object.keys(value);
    for (const key of keys.slice(0, maxEntries)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      out[key] = descriptor && 'value' in descriptor ? copyOf(descriptor.value, depth + 1, maxDepth, maxEntries, seen) : '[getter]';
    }
    if (keys.length > maxEntries) out['…'] = `${keys.length - maxEntries} more`;
    return out;
  } finally {
    seen.delete(value);
  }
}
