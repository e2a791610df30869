import { InvalidArgument, NotFound, Unauthenticated } from '@hangar/errors';
import type { TokenDocument } from '../data/token.model';
import type { UserDocument } from '../data/user.model';
import { Actor, requireSelfOrAdmin } from './actor';
import type { UsersDeps } from './deps';
import { generateToken, hashToken } from './secrets';
import { TokenLimitInput, validateTokenLimits } from './token-limits';

const TOKEN_NAME_MAX = 100;

/**
 * Resolves a token to its live user and the token's limits. Revocation is a
 * delete, so it holds at once everywhere; an expired token is refused like a
 * revoked one.
 */
export async function authenticate(deps: UsersDeps, token: string, address = '', now = Date.now()): Promise<{ user: UserDocument; token: TokenDocument }> {
  if (!token) throw new Unauthenticated();
  const record = await deps.tokens.findByHash(hashToken(token));
  const user = record ? await deps.users.findById(record.userId) : null;
  if (!record || !user) throw new Unauthenticated('The access token is invalid or has been revoked');
  if (record.expiresAt && record.expiresAt.getTime() <= now) throw new Unauthenticated('The access token has expired');
  void deps.tokens.touch(record, address).catch(() => undefined);
  return { user, token: record };
}

export async function createToken(deps: UsersDeps, actor: Actor, userId: number, name: string, limits: TokenLimitInput): Promise<{ token: TokenDocument; secret: string }> {
  requireSelfOrAdmin(actor, userId);
  const trimmed = name.trim() || 'default';
  if (trimmed.length > TOKEN_NAME_MAX) throw InvalidArgument.field('name', `is too long (maximum is ${TOKEN_NAME_MAX} characters)`);
  const valid = validateTokenLimits(limits);
  if (!(await deps.users.findById(userId))) throw new NotFound(`User ${userId} not found`);
  const secret = generateToken();
  const token = await deps.tokens.create(userId, trimmed, hashToken(secret), secret.slice(-4), valid);
  return { token, secret };
}

/** Registers a token value chosen by the operator (HANGAR_ADMIN_TOKEN). */
export async function registerToken(deps: UsersDeps, userId: number, name: string, secret: string): Promise<TokenDocument> {
  return deps.tokens.create(userId, name, hashToken(secret), secret.slice(-4));
}

export async function listTokens(deps: UsersDeps, actor: Actor, userId: number): Promise<TokenDocument[]> {
  requireSelfOrAdmin(actor, userId);
  if (!(await deps.users.findById(userId))) throw new NotFound(`User ${userId} not found`);
  return deps.tokens.listForUser(userId);
}

export async function revokeToken(deps: UsersDeps, actor: Actor, userId: number, tokenId: number): Promise<void> {
  requireSelfOrAdmin(actor, userId);
  if (!(await deps.tokens.delete(userId, tokenId))) throw new NotFound(`Token ${tokenId} not found`);
}
