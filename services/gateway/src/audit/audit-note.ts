import type { Response } from 'express';

/**
 * What a route adds to its request's audit entry when the request alone does
 * not say it: who signed in (sign-ins carry no token, so no user is known
 * beforehand) and what kind of sign-in it was — the SSO-only break-glass
 * password, a first-time single sign-on that created the user, the reason a
 * single sign-on was refused.
 */
export interface AuditNote {
  userId?: number;
  /** The app of a write whose path does not name it (a channel, scheme, webhook or debug file by id). */
  appId?: number;
  fields?: Record<string, string>;
}

export function noteForAudit(res: Response, note: AuditNote): void {
  const current = (res.locals.auditNote ?? {}) as AuditNote;
  res.locals.auditNote = { ...current, ...note, fields: { ...current.fields, ...note.fields } };
}

export const auditNoteOf = (res: Response): AuditNote => (res.locals.auditNote ?? {}) as AuditNote;

/**
 * Notes the app a write concerns, looked up by the route before it writes (a
 * deleted channel cannot be looked up afterwards) — best effort: a failed
 * lookup leaves the entry's app unknown, and the write answers for itself.
 */
export async function noteAppOf(res: Response, lookup: () => Promise<number | undefined>): Promise<void> {
  try {
    const appId = await lookup();
    if (appId) noteForAudit(res, { appId });
  } catch {
    // The write that follows meets the same problem and answers it.
  }
}
