import { FieldErrors, InvalidArgument } from '@hangar/errors';
import { TIME_ZONES } from './time-zones';

export const LOCALES = ['zh-CN', 'en'] as const;
export const APPEARANCES = ['light', 'dark', 'auto'] as const;
export const ROLES = ['member', 'developer', 'admin'] as const;

export type Role = (typeof ROLES)[number];

export const DEFAULTS = { locale: 'en', appearance: 'auto', timezone: 'Etc/UTC', role: 'member' as Role };

/**
 * Password strength, kept simple enough to state in one sentence
 * (docs/operations.md, Passwords): at least 12 characters, of which at least
 * 5 different ones, so `aaaaaaaaaaaa` or `121212121212` do not pass. Length
 * is what makes a guessed password expensive (NIST SP 800-63B asks for no
 * composition rules); the distinct-characters floor only stops the trivial.
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MIN_DISTINCT = 5;
const PASSWORD_MAX_LENGTH = 128;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export interface UserFieldInput {
  username?: string;
  email?: string;
  password?: string;
  locale?: string;
  appearance?: string;
  timezone?: string;
  role?: string;
}

export interface ValidUserFields {
  username?: string;
  email?: string;
  password?: string;
  locale?: string;
  appearance?: string;
  timezone?: string;
  role?: Role;
}

/** The seed documents `user` as the default role; it means `member`. */
export function normalizeRole(role: string): string {
  return role === 'user' ? 'member' : role;
}

/**
 * Checks every given field and reports all problems at once, keyed by field,
 * as the API's `entry` shows them. Absent fields are not checked: the caller
 * decides which are required.
 */
export function validateUserFields(input: UserFieldInput, required: (keyof UserFieldInput)[] = []): ValidUserFields {
  const entry: FieldErrors = {};
  const problem = (field: string, message: string) => (entry[field] ??= []).push(message);
  for (const field of required) {
    if (input[field] === undefined || input[field] === '') problem(field, "can't be blank");
  }
  const out: ValidUserFields = {};

  if (input.username !== undefined && input.username !== '') {
    const username = input.username.trim();
    if (username.length < 2 || username.length > 64) problem('username', 'must be 2 to 64 characters');
    else if (CONTROL_CHARACTERS.test(username)) problem('username', 'must not contain control characters');
    else out.username = username;
  }
  if (input.email !== undefined && input.email !== '') {
    const email = input.email.trim().toLowerCase();
    if (email.length > 254 || !EMAIL_PATTERN.test(email)) problem('email', 'is not a valid email address');
    else out.email = email;
  }
  if (input.password !== undefined && input.password !== '') {
    if (input.password.length < PASSWORD_MIN_LENGTH) problem('password', `is too short (minimum is ${PASSWORD_MIN_LENGTH} characters)`);
    else if (input.password.length > PASSWORD_MAX_LENGTH) problem('password', `is too long (maximum is ${PASSWORD_MAX_LENGTH} characters)`);
    else if (new Set(input.password).size < PASSWORD_MIN_DISTINCT) problem('password', `is too weak (use at least ${PASSWORD_MIN_DISTINCT} different characters)`);
    else out.password = input.password;
  }
  if (input.locale !== undefined) {
    if (!(LOCALES as readonly string[]).includes(input.locale)) problem('locale', `must be one of ${LOCALES.join(', ')}`);
    else out.locale = input.locale;
  }
  if (input.appearance !== undefined) {
    if (!(APPEARANCES as readonly string[]).includes(input.appearance)) problem('appearance', `must be one of ${APPEARANCES.join(', ')}`);
    else out.appearance = input.appearance;
  }
  if (input.timezone !== undefined) {
    if (!TIME_ZONES.has(input.timezone)) problem('timezone', 'is not a supported time zone');
    else out.timezone = input.timezone;
  }
  if (input.role !== undefined) {
    const role = normalizeRole(input.role);
    if (!(ROLES as readonly string[]).includes(role)) problem('role', `must be one of ${ROLES.join(', ')}`);
    else out.role = role as Role;
  }

  if (Object.keys(entry).length > 0) {
    throw new InvalidArgument(`Invalid user: ${Object.entries(entry).map(([f, p]) => `${f} ${p.join(', ')}`).join('; ')}`, entry);
  }
  return out;
}
