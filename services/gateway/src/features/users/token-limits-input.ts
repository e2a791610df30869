import type { users } from '@hangar/proto';
import { readTextFields } from '../../http/input';

/**
 * A new token's limits as the client sends them, in any of the three body
 * encodings: `scopes` and `app_ids` comma-separated, `expires_at` ISO 8601.
 * Values are only read here; the users service judges them after the
 * caller's right (PRODUCT §2: the right before the values), so what cannot be
 * read is passed on as something it refuses (an id 0, a negative time).
 */
export function readTokenLimits(body: Record<string, unknown> | undefined): users.TokenLimits | undefined {
  const { scopes, app_ids: appIds, expires_at: expiresAt } = readTextFields(body, ['scopes', 'app_ids', 'expires_at'] as const);
  if (!scopes?.trim() && !appIds?.trim() && !expiresAt?.trim()) return undefined;
  return {
    scopes: list(scopes),
    appIds: list(appIds).map((id) => (/^[1-9]\d{0,15}$/.test(id) && Number.isSafeInteger(Number(id)) ? Number(id) : 0)),
    expiresAtMs: expiresAt?.trim() ? readTime(expiresAt.trim()) : 0,
  };
}

function list(text: string | undefined): string[] {
  return (text ?? '').split(/[\s,]+/).filter(Boolean);
}

/** A full date and time with its zone (or a bare date, midnight UTC); -1 for anything else. */
function readTime(text: string): number {
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(text)) return -1;
  const ms = Date.parse(text);
  return Number.isFinite(ms) && ms > 0 ? ms : -1;
}
