import { FieldErrors, InvalidArgument } from '@hangar/errors';

/**
 * What a personal access token may be limited to. A scope names a
 * kind of work; which routes each allows is the gateway's table
 * (declared with each operation, services/gateway/src/features/).
 */
export const TOKEN_SCOPES = ['read', 'upload', 'manage', 'admin'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

const MAX_APPS = 100;

export interface TokenLimitInput {
  scopes: string[];
  appIds: number[];
  /** 0: never expires; negative: the caller sent no date the gateway could read. */
  expiresAtMs: number;
}

export interface ValidTokenLimits {
  scopes?: TokenScope[];
  appIds?: number[];
  expiresAt?: Date;
}

/** Every problem at once, keyed by the HTTP field names. */
export function validateTokenLimits(input: TokenLimitInput, now = Date.now()): ValidTokenLimits {
  const entry: FieldErrors = {};
  const problem = (field: string, message: string) => (entry[field] ??= []).push(message);
  const unknown = input.scopes.filter((s) => !(TOKEN_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) problem('scopes', `has unknown scope ${unknown.join(', ')}: use ${TOKEN_SCOPES.join(', ')}`);
  if (input.appIds.some((id) => !Number.isSafeInteger(id) || id <= 0)) problem('app_ids', 'must be app ids (positive integers)');
  if (input.appIds.length > MAX_APPS) problem('app_ids', `may name at most ${MAX_APPS} apps`);
  if (input.expiresAtMs < 0) problem('expires_at', 'must be an ISO 8601 date and time, e.g. 2030-01-31T00:00:00Z');
  else if (input.expiresAtMs !== 0 && !(input.expiresAtMs > now)) problem('expires_at', 'must be in the future');
  if (Object.keys(entry).length > 0) {
    throw new InvalidArgument(`Invalid token: ${Object.entries(entry).map(([f, p]) => `${f} ${p.join(', ')}`).join('; ')}`, entry);
  }
  return {
    ...(input.scopes.length ? { scopes: [...new Set(input.scopes)] as TokenScope[] } : {}),
    ...(input.appIds.length ? { appIds: [...new Set(input.appIds)] } : {}),
    ...(input.expiresAtMs ? { expiresAt: new Date(input.expiresAtMs) } : {}),
  };
}
