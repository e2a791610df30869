import busboy from 'busboy';
import express, { NextFunction, Request, Response } from 'express';
import { MalformedRequest, PayloadTooLarge } from '@hangar/errors';
import { MAX_INPUT_DEPTH, nestsDeeperThan } from '@hangar/logger';
import { operationOf } from './caller-context';
import { checkDocumentedFields } from './documented-fields';

const MULTIPART_LIMITS = { fields: 200, fieldSize: 1024 * 1024, parts: 250 };

/**
 * Accepts the three body encodings the contract allows — multipart/form-data
 * (what Zealot clients send), urlencoded and JSON — into `req.body` with the
 * same field names: a step of each API operation's route, once express has
 * found its operation (operations/mount.ts). An operation that streams files
 * (an upload, `streams`) reads a multipart body itself: it is left unread here.
 */
export function parseBodies({ maxBodyBytes, streams }: { maxBodyBytes: number; streams: boolean }) {
  const json = express.json({ limit: maxBodyBytes });
  const urlencoded = express.urlencoded({ extended: false, limit: maxBodyBytes });
  return (req: Request, res: Response, next: NextFunction) => {
    const type = req.headers['content-type'] ?? '';
    if (/^multipart\/form-data/i.test(type)) {
      if (streams) return next();
      return parseMultipartFields(req).then((fields) => {
        req.body = fields;
        next();
      }, next);
    }
    if (/^application\/json/i.test(type)) return json(req, res, checked(req, next, 'application/json'));
    if (/^application\/x-www-form-urlencoded/i.test(type)) return urlencoded(req, res, checked(req, next, 'application/x-www-form-urlencoded'));
    req.body = req.body ?? {};
    checked(req, next, '')();
  };
}

/**
 * After parsing, before any route: a body or query nested past MAX_INPUT_DEPTH is a
 * 400 — one nested 20,000 deep overflowed the stack of whatever walked it later (the audit entry,
 * after the answer, which ended the process) — and the body's fields have the types the document
 * gives them (documented-fields.ts).
 */
function checked(req: Request, next: NextFunction, mediaType: string): NextFunction {
  return (err?: unknown) => {
    if (err) return next(err);
    if (nestsDeeperThan(req.body, MAX_INPUT_DEPTH) || nestsDeeperThan(req.query, MAX_INPUT_DEPTH)) {
      return next(new MalformedRequest(`Malformed request: a body or query nested deeper than ${MAX_INPUT_DEPTH} levels`));
    }
    if (mediaType) {
      try {
        checkDocumentedFields(operationOf(req)?.id, mediaType, req.body);
      } catch (refusal) {
        return next(refusal);
      }
    }
    next();
  };
}

/** Reads a multipart body's text fields; file parts are drained and ignored here. */
function parseMultipartFields(req: Request): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: MULTIPART_LIMITS, defParamCharset: 'utf8' });
    } catch (err) {
      reject(new MalformedRequest(`Malformed multipart body: ${(err as Error).message}`));
      return;
    }
    const fields: Record<string, string> = {};
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) {
        // A field past the limit is a body too large (413), as for JSON and urlencoded bodies.
        parser.emit('error', new PayloadTooLarge(`Form field ${name} is larger than ${MULTIPART_LIMITS.fieldSize} bytes`));
        return;
      }
      fields[name] = value;
    });
    // Errors of a drained file part (a body cut inside it) are reported by the parser itself;
    // unlistened, they crashed the gateway.
    parser.on('file', (_name, stream) => stream.on('error', () => undefined).resume());
    parser.on('partsLimit', () => parser.emit('error', new MalformedRequest('Too many form parts')));
    parser.on('fieldsLimit', () => parser.emit('error', new MalformedRequest('Too many form fields')));
    parser.once('close', () => resolve(fields));
    // `on`, not `once`: busboy emits 'error' once per malformed part header; a second one with no
    // listener crashed the gateway. Rejecting twice is harmless.
    parser.on('error', (err: Error) => {
      req.unpipe(parser);
      req.resume();
      reject(err instanceof MalformedRequest || err instanceof PayloadTooLarge ? err : new MalformedRequest(`Malformed multipart body: ${err.message}`));
    });
    req.pipe(parser);
  });
}
