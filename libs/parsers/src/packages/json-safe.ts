// details end up in MongoDB (through FerretDB), where keys with '.' or a leading '$' are refused
// and undefined, Buffers and Dates do not round-trip as JSON. Parsers build details freely and this
// makes them storable in one place.

export function toJsonSafe(details: Record<string, unknown>): Record<string, unknown> {
  const value = clean(details, 0);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function clean(value: unknown, depth: number): unknown {
  if (depth > 16) return undefined;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return undefined;
  if (Array.isArray(value)) return value.map((item) => clean(item, depth + 1)).filter((item) => item !== undefined);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const cleaned = clean(item, depth + 1);
      if (cleaned !== undefined) out[safeKey(key)] = cleaned;
    }
    return out;
  }
  return undefined;
}

function safeKey(key: string): string {
  return key.replace(/\./g, '_').replace(/^\$/, '_');
}
