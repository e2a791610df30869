import type { NextFunction, Request, Response } from 'express';
import { currentRequestId } from '@hangar/logger';
import { operationOf } from '../http/caller-context';
import { afterAnswer } from '../http/after-answer';
import { auditEntryOf } from './audit-entry';
import { auditNoteOf } from './audit-note';
import type { AuditPublisher } from './audit-publisher';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/**
 * The parts of a resumable upload: one per 8 MiB, hundreds per build. The
 * upload's creation and its finishing call are recorded; a part only when
 * refused.
 */
const QUIET_WHEN_ALLOWED = new Set(['appendUpload']);
/**
 * GETs that write: the single sign-on callback signs in and may create a user,
 * so it is recorded, refused or not, like the password sign-in.
 */
const RECORDED_GETS = new Set(['/api/sessions/oidc/callback']);

/**
 * Every write through the API, allowed or refused, goes to the audit log as
 * its answer is sent: who (the authenticated user and token, when
 * known), the operation and its resource ids, the body's fields (secrets
 * redacted), the address, the request id and the status — sign-ins too,
 * whatever token they read. The install pages' unlock is no API write (its
 * attempts are limited instead, limits/). A request the client abandoned is
 * recorded as 499.
 */
export function recordWrites(publisher: AuditPublisher) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!WRITES.has(req.method) && !(req.method === 'GET' && RECORDED_GETS.has(req.path))) return next();
    // The install pages (/channels/…/unlock) are not the API.
    if (!req.path.startsWith('/api/')) return next();
    const path = req.path;
    const requestId = currentRequestId() ?? '';
    // Read now: once the socket is gone (a refused upload answered with Connection: close),
    // req.ip throws, and in the 'close' handler below that took the whole gateway down.
    const address = req.ip ?? 'unknown';
    let answer: unknown;
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      answer = body;
      return json(body);
    };
    let recorded = false;
    const record = (status: number) => {
      if (recorded) return;
      recorded = true;
      // Operations only: a request express routed to none is a 404, not a write.
      const match = operationOf(req);
      if (!match) return;
      if (QUIET_WHEN_ALLOWED.has(match.id) && status < 400) return;
      const note = auditNoteOf(res);
      publisher.record(
        auditEntryOf({
          at: Date.now(),
          ...(req.user ? { userId: req.user.id, tokenId: req.user.grant?.tokenId ?? 0 } : note.userId ? { userId: note.userId } : {}),
          notes: note.fields ?? {},
          ...(note.appId ? { appId: note.appId } : {}),
          operationId: match.id,
          method: req.method,
          path,
          params: match.params,
          body: req.body,
          answer,
          address,
          requestId,
          status,
        }),
      );
    };
    // Recorded as the answer is handed to the socket, not after: the entry is in the publisher's
    // spool before the client can read the answer, so a gateway killed right after answering
    // still sends it when it starts again (audit-spool.ts). Bounded (audit-entry.ts), and
    // caught: an entry that cannot be made is logged, and the answer still goes out.
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      try {
        record(res.statusCode);
      } catch (err) {
        publisher.logger.error({ error: { type: (err as Error)?.name, message: String((err as Error)?.message ?? err).slice(0, 300) } }, 'audit entry failed before the answer');
      }
      return end(...args);
    }) as Response['end'];
    // A request the client abandoned before its answer: 499.
    afterAnswer(res, 'close', publisher.logger, 'audit entry', () => record(res.writableFinished ? res.statusCode : 499));
    next();
  };
}
