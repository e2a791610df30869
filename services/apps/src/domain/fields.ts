import { FieldErrors, InvalidArgument } from '@hangar/errors';
import { COLLABORATOR_ROLES, CollaboratorRole, isCollaboratorRole } from './permissions';

/** Platforms a channel can hold, as stored and answered (lowercase), with their display labels. */
export const DEVICE_TYPES = { ios: 'iOS', android: 'Android', macos: 'macOS', windows: 'Windows', linux: 'Linux' } as const;
export type DeviceType = keyof typeof DEVICE_TYPES;

export const SLUG_PATTERN = /^[A-Za-z0-9_-]{3,64}$/;
/** Letters, digits, `.`, `-`, `_` and the glob `*` (PRODUCT §3 matching). */
export const BUNDLE_ID_RULE_PATTERN = /^[A-Za-z0-9._*-]+$/;
export const ANY_BUNDLE_ID = '*';

const NAME_MAX = 255;
const URL_MAX = 2048;
const PASSWORD_MAX = 128;
const INT32_MAX = 2_147_483_647;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** Collects every problem of a request, keyed by field, and throws them at once. */
export class FieldProblems {
  readonly entry: FieldErrors = {};

  add(field: string, problem: string): void {
    (this.entry[field] ??= []).push(problem);
  }

  throwIfAny(what: string): void {
    const fields = Object.keys(this.entry);
    if (fields.length === 0) return;
    throw new InvalidArgument(`Invalid ${what}: ${fields.map((f) => `${f} ${this.entry[f]!.join(', ')}`).join('; ')}`, this.entry);
  }
}

export function parseDeviceType(value: string): DeviceType | undefined {
  const lower = value.trim().toLowerCase();
  return Object.prototype.hasOwnProperty.call(DEVICE_TYPES, lower) ? (lower as DeviceType) : undefined;
}

export function isValidSlug(value: string): boolean {
  return SLUG_PATTERN.test(value);
}

export function isValidBundleIdRule(value: string): boolean {
  return value.length <= NAME_MAX && BUNDLE_ID_RULE_PATTERN.test(value);
}

/** Form booleans: true/false (any case), 1/0. Anything else is undefined (invalid). */
export function parseBooleanText(value: string): boolean | undefined {
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return undefined;
}

/** A non-negative int32 written as digits; anything else (negative, fraction, text) is undefined. */
export function parseNonNegativeIntText(value: string): number | undefined {
  const v = value.trim();
  if (!/^\d{1,10}$/.test(v)) return undefined;
  const n = Number(v);
  return n <= INT32_MAX ? n : undefined;
}

function checkName(problems: FieldProblems, value: string | undefined, required: boolean, field = 'name'): string | undefined {
  if (value === undefined) {
    if (required) problems.add(field, "can't be blank");
    return undefined;
  }
  const name = value.trim();
  if (!name) problems.add(field, "can't be blank");
  else if (name.length > NAME_MAX) problems.add(field, `is too long (maximum is ${NAME_MAX} characters)`);
  else if (CONTROL_CHARACTERS.test(name)) problems.add(field, 'must not contain control characters');
  else return name;
  return undefined;
}

export function validateAppName(value: string | undefined): string {
  const problems = new FieldProblems();
  const name = checkName(problems, value, true);
  problems.throwIfAny('app');
  return name!;
}

export interface SchemeInput {
  name?: string;
  newBuildCallout?: boolean;
  newBuildCalloutText?: string;
  retainedBuilds?: number;
  retainedBuildsText?: string;
}

export interface SchemeFields {
  name?: string;
  newBuildCallout?: boolean;
  retainedBuilds?: number;
}

export const SCHEME_DEFAULTS = { newBuildCallout: true, retainedBuilds: 0 };

/**
 * Create: `name` required, the flags default (callout on, keep every build).
 * Update: only the fields given change. The text forms (what a form sent)
 * win over the typed ones.
 */
export function validateSchemeFields(input: SchemeInput, mode: 'create' | 'update'): SchemeFields {
  const problems = new FieldProblems();
  const out: SchemeFields = {};
  const name = checkName(problems, input.name, mode === 'create');
  if (name !== undefined) out.name = name;

  if (input.newBuildCalloutText !== undefined && input.newBuildCalloutText !== '') {
    const flag = parseBooleanText(input.newBuildCalloutText);
    if (flag === undefined) problems.add('new_build_callout', 'must be true or false');
    else out.newBuildCallout = flag;
  } else if (input.newBuildCallout !== undefined) {
    out.newBuildCallout = input.newBuildCallout;
  }

  if (input.retainedBuildsText !== undefined && input.retainedBuildsText !== '') {
    const n = parseNonNegativeIntText(input.retainedBuildsText);
    if (n === undefined) problems.add('retained_builds', 'must be an integer >= 0');
    else out.retainedBuilds = n;
  } else if (input.retainedBuilds !== undefined) {
    if (!Number.isInteger(input.retainedBuilds) || input.retainedBuilds < 0) problems.add('retained_builds', 'must be an integer >= 0');
    else out.retainedBuilds = input.retainedBuilds;
  }
  problems.throwIfAny('scheme');
  if (mode === 'create') return { ...SCHEME_DEFAULTS, ...out };
  return out;
}

export interface ChannelInput {
  name?: string;
  deviceType?: string;
  slug?: string;
  bundleId?: string;
  gitUrl?: string;
  password?: string;
  minSupportedVersion?: string;
}

export interface ChannelFields {
  name?: string;
  deviceType?: DeviceType;
  /** A custom slug; absent means "generate one" on create and "keep" on update. */
  slug?: string;
  bundleId?: string;
  /** null clears it. */
  gitUrl?: string | null;
  /** null clears it. */
  minSupportedVersion?: string | null;
  /** null clears the visit password; a string sets it. */
  password?: string | null;
}

/**
 * Create: `name` and `device_type` required; `bundle_id` defaults to `*`.
 * Update: only the fields given change; an empty `git_url` or `password`
 * clears it, an empty `slug` keeps the current one.
 */
export function validateChannelFields(input: ChannelInput, mode: 'create' | 'update'): ChannelFields {
  const problems = new FieldProblems();
  const out: ChannelFields = {};
  const name = checkName(problems, input.name, mode === 'create');
  if (name !== undefined) out.name = name;

  if (input.deviceType === undefined || input.deviceType.trim() === '') {
    if (mode === 'create' || input.deviceType !== undefined) problems.add('device_type', "can't be blank");
  } else {
    const deviceType = parseDeviceType(input.deviceType);
    if (!deviceType) problems.add('device_type', `must be one of ${Object.keys(DEVICE_TYPES).join(', ')}`);
    else out.deviceType = deviceType;
  }

  if (input.slug !== undefined && input.slug.trim() !== '') {
    const slug = input.slug.trim();
    if (!isValidSlug(slug)) problems.add('slug', 'must be 3 to 64 letters, digits, - or _');
    else out.slug = slug;
  }

  if (input.bundleId !== undefined) {
    const rule = input.bundleId.trim();
    if (rule === '') out.bundleId = ANY_BUNDLE_ID;
    else if (!isValidBundleIdRule(rule)) problems.add('bundle_id', 'may only contain letters, digits, ., -, _ and *');
    else out.bundleId = rule;
  } else if (mode === 'create') {
    out.bundleId = ANY_BUNDLE_ID;
  }

  if (input.gitUrl !== undefined) {
    const url = input.gitUrl.trim();
    if (url === '') out.gitUrl = null;
    else if (url.length > URL_MAX) problems.add('git_url', `is too long (maximum is ${URL_MAX} characters)`);
    else if (CONTROL_CHARACTERS.test(url)) problems.add('git_url', 'must not contain control characters');
    else out.gitUrl = url;
  }

  if (input.minSupportedVersion !== undefined) {
    const version = input.minSupportedVersion.trim();
    if (version === '') out.minSupportedVersion = null;
    else if (version.length > 64) problems.add('min_supported_version', 'is too long (maximum is 64 characters)');
    else if (CONTROL_CHARACTERS.test(version) || !/[0-9A-Za-z]/.test(version)) problems.add('min_supported_version', 'must be a release version such as 2.1.0');
    else out.minSupportedVersion = version;
  }

  if (input.password !== undefined) {
    if (input.password === '') out.password = null;
    else if (input.password.length > PASSWORD_MAX) problems.add('password', `is too long (maximum is ${PASSWORD_MAX} characters)`);
    else out.password = input.password;
  }
  problems.throwIfAny('channel');
  return out;
}

export function validateCollaboratorRole(value: string | undefined): CollaboratorRole {
  const problems = new FieldProblems();
  const role = value?.trim().toLowerCase() ?? '';
  if (!role) problems.add('role', "can't be blank");
  else if (!isCollaboratorRole(role)) problems.add('role', `must be one of ${COLLABORATOR_ROLES.join(', ')}`);
  problems.throwIfAny('collaborator');
  return role as CollaboratorRole;
}

export function validateUserId(value: number | undefined): number {
  if (!value || !Number.isInteger(value) || value < 1) throw InvalidArgument.field('user_id', "can't be blank");
  return value;
}
