import type { Request, Response } from 'express';
import { Unauthenticated } from '@hangar/errors';
import type { debugFiles } from '@hangar/proto';
import type { ServiceClients } from '../../clients/service-clients';
import { actorOf, actorOfUser, readToken } from '../../http/authenticate.middleware';
import type { StoredFiles } from '../releases/stored-files';

/** Who asks: a user (token), or whoever holds a channel key. */
export interface Credential {
  actor?: { userId: number; role: string; appLimit?: { appIds: number[] } };
  channelKey: string;
}

/** Breakpad names the file after the module without a Windows debug extension: app.pdb → app.sym. */
export function symName(module: string): string {
  return `${module.replace(/\.(pdb|exe|dll)$/i, '')}.sym`;
}

/** The token of a layout's path without a credential in it: the header or `?token=`, else a 401 naming the other way. */
export async function tokenCredential(clients: ServiceClients, req: Request, credentialPath: string): Promise<Credential> {
  const token = readToken(req);
  if (!token) throw new Unauthenticated(`Missing access token: send Authorization: Bearer <token>, or put a token or channel key in the URL: ${credentialPath}`);
  req.user = await clients.users.authenticate({ token });
  return { actor: actorOf(req), channelKey: '' };
}

/** The credential in a path: a token when one authenticates, otherwise a channel key (checked by the service). */
export async function pathCredential(clients: ServiceClients, credential: string): Promise<Credential> {
  try {
    return { actor: actorOfUser(await clients.users.authenticate({ token: credential })), channelKey: '' };
  } catch (err) {
    if (!(err instanceof Unauthenticated)) throw err;
    return { channelKey: credential };
  }
}

/**
 * 302 to the storage URL; with DOWNLOAD_REDIRECT=false the bytes pass through the gateway,
 * HEAD and a single `Range: bytes=a-b` included (debuginfod clients and symbolizers may ask).
 */
export async function sendSymbolFile(req: Request, res: Response, location: debugFiles.SymbolFileLocation, files: Pick<StoredFiles, 'downloadRedirect' | 'storage'>): Promise<void> {
  if (files.downloadRedirect) {
    res.redirect(302, location.url);
    return;
  }
  const size = location.size;
  res.setHeader('Content-Type', 'application/octet-stream');
  res.setHeader('Accept-Ranges', 'bytes');
  res.attachment(location.fileName);
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  let start = 0;
  let end = size - 1;
  if (range && (range[1] || range[2])) {
    if (range[1]) {
      start = Number(range[1]);
      if (range[2]) end = Math.min(Number(range[2]), size - 1);
    } else {
      start = Math.max(0, size - Number(range[2]));
    }
    if (start > end || start >= size) {
      res.status(416).setHeader('Content-Range', `bytes */${size}`).end();
      return;
    }
    res.status(206).setHeader('Content-Range', `bytes ${start}-${end}/${size}`);
  }
  res.setHeader('Content-Length', String(end - start + 1));
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = start === 0 && end === size - 1 ? await files.storage.getStream(location.objectKey) : await files.storage.getRange(location.objectKey, start, end - start + 1);
  stream.pipe(res);
}
