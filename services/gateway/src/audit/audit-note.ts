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
  fields?: Record<string, string>;
}

export function noteForAudit(res: Response, note: AuditNote): void {
  const current = (res.locals.auditNote ?? {}) as AuditNote;
  res.locals.auditNote = { ...current, ...note, fields: { ...current.fields, ...note.fields } };
}

export const auditNoteOf = (res: Response): AuditNote => (res.locals.auditNote ?? {}) as AuditNote;
