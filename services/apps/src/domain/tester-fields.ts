import { InvalidArgument } from '@hangar/errors';

export const TESTER_GROUP_NAME_MAX = 100;
/** Addresses one request may add: a pasted list or a CSV export of a team, not a mailing list. */
export const TESTERS_PER_REQUEST_MAX = 1_000;
const EMAIL_MAX = 254;
// Deliberately plain: one @, no spaces or list separators, a dot in the domain. The mail
// server, not this pattern, is the judge of whether an address exists.
const EMAIL_PATTERN = /^[^\s@<>",;()[\]]+@[^\s@<>",;()[\]]+\.[^\s@<>",;()[\]]+$/;

export function validateGroupName(name: string | undefined): string {
  const trimmed = (name ?? '').trim();
  if (!trimmed) throw InvalidArgument.field('name', "can't be blank");
  if (trimmed.length > TESTER_GROUP_NAME_MAX) throw InvalidArgument.field('name', `is too long (at most ${TESTER_GROUP_NAME_MAX} characters)`);
  return trimmed;
}

export function isEmail(value: string): boolean {
  return value.length <= EMAIL_MAX && EMAIL_PATTERN.test(value);
}

/** `Jane Doe <jane@example.com>` and `"jane@example.com"` are the address inside. */
function addressIn(cell: string): string {
  const unquoted = cell.trim().replace(/^["']|["']$/g, '').trim();
  const angled = /<([^<>]*)>$/.exec(unquoted);
  return (angled ? angled[1]! : unquoted).trim().toLowerCase();
}

/**
 * The addresses in what an admin pasted: one or more values, each a list separated by
 * commas, semicolons, tabs or new lines, or a CSV export (any column holding the address;
 * a first line without one is its header). Duplicates count once. Every line that holds
 * no address, and every cell that looks like an address but is not one, is named in one 422.
 */
export function parseTesterEmails(values: string[]): string[] {
  const found = new Set<string>();
  const problems: string[] = [];
  let line = 0;
  for (const value of values) {
    for (const text of value.split(/\r?\n|\r/)) {
      line++;
      const cells = text.split(/[,;\t]/).map(addressIn).filter(Boolean);
      if (cells.length === 0) continue;
      // Cells with an @ are meant as addresses (a cell of several, space-separated, as several).
      const meant = cells.filter((cell) => cell.includes('@')).flatMap((cell) => (/\s/.test(cell) && !/<.*>/.test(cell) ? cell.split(/\s+/) : [cell]));
      if (meant.length === 0) {
        // A first line without one is a CSV header; elsewhere a lone word is a mistyped address, a row of cells a row without one.
        if (line === 1) continue;
        problems.push(cells.length === 1 ? `'${cells[0]!.slice(0, 80)}' is not an e-mail address` : `line ${line} has no e-mail address`);
        continue;
      }
      for (const address of meant) {
        if (isEmail(address)) found.add(address);
        else problems.push(`'${address.slice(0, 80)}' is not an e-mail address`);
      }
    }
  }
  if (problems.length > 0) throw new InvalidArgument('Some testers could not be read', { emails: problems.slice(0, 20) });
  if (found.size === 0) throw InvalidArgument.field('emails', "can't be blank");
  if (found.size > TESTERS_PER_REQUEST_MAX) throw InvalidArgument.field('emails', `holds ${found.size} addresses; at most ${TESTERS_PER_REQUEST_MAX} at once`);
  return [...found];
}

/** A join-by-link address: exactly one. */
export function validateTesterEmail(email: string | undefined): string {
  const address = addressIn(email ?? '');
  if (!address) throw InvalidArgument.field('email', "can't be blank");
  if (!isEmail(address)) throw InvalidArgument.field('email', 'is not an e-mail address');
  return address;
}

export function validateSeats(seats: number): number {
  if (!Number.isInteger(seats) || seats < 0 || seats > 100_000) throw InvalidArgument.field('seats', 'must be a whole number from 0 (no limit) to 100000');
  return seats;
}

export function validateExpiry(expiresAtMs: number, now = Date.now()): Date | undefined {
  if (expiresAtMs === 0) return undefined;
  if (!Number.isSafeInteger(expiresAtMs) || expiresAtMs <= now) throw InvalidArgument.field('expires_at', 'must be in the future');
  return new Date(expiresAtMs);
}
