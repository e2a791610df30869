import { InvalidArgument } from '@hangar/errors';

export interface ChangelogEntry {
  message: string;
  author?: string;
  email?: string;
  date?: string;
}

const MAX_ENTRIES = 10_000;
const MAX_FIELD_LENGTH = 10_000;

/**
 * `changelog` is a JSON array of `{message, author?, email?, date?}` or plain
 * text, one entry per non-empty line with a leading `- ` removed. Only text
 * that parses as a JSON array of objects is JSON: anything else — `2024`,
 * `true`, an object, `["a"]`, a line starting with `[` — is plain text, as
 * Zealot stores it (docs/decisions.md).
 */
export function parseChangelog(raw: string | undefined): ChangelogEntry[] {
  if (raw === undefined || raw.trim() === '') return [];
  const trimmed = raw.trim();
  if (trimmed.startsWith('[')) {
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch {
      json = undefined;
    }
    if (Array.isArray(json) && json.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item))) return fromJson(json);
  }
  const entries = raw
    .split(/\r?\n/)
    .map((line) => line.trim().replace(/^[-*]\s+/, ''))
    .filter((line) => line.length > 0)
    .map((message) => ({ message: message.slice(0, MAX_FIELD_LENGTH) }));
  if (entries.length > MAX_ENTRIES) throw invalid(`has more than ${MAX_ENTRIES} lines`);
  return entries;
}

function fromJson(json: unknown[]): ChangelogEntry[] {
  if (json.length > MAX_ENTRIES) throw invalid(`has more than ${MAX_ENTRIES} entries`);
  return json.map((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw invalid(`entry ${i} must be an object`);
    const entry = item as Record<string, unknown>;
    if (typeof entry.message !== 'string' || entry.message.trim() === '') throw invalid(`entry ${i} needs a message`);
    const out: ChangelogEntry = { message: entry.message.slice(0, MAX_FIELD_LENGTH) };
    for (const key of ['author', 'email', 'date'] as const) {
      const value = entry[key];
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string') throw invalid(`entry ${i}: ${key} must be a string`);
      out[key] = value.slice(0, MAX_FIELD_LENGTH);
    }
    return out;
  });
}

/** The plain-text rendering: one `- message` line per entry. */
export function textChangelog(entries: ChangelogEntry[]): string {
  return entries.map((e) => `- ${e.message}`).join('\n');
}

function invalid(problem: string): InvalidArgument {
  return InvalidArgument.field('changelog', problem);
}
