import { Request, Response, Router } from 'express';
import { NotFound, Unauthenticated } from '@hangar/errors';
import type { debugFiles } from '@hangar/proto';
import type { ServiceClients } from '../clients/service-clients';
import { actorOf, identifyIfToken, readToken } from '../http/authenticate.middleware';
import type { ReleasesRouteOptions } from './releases.routes';

export type SymbolsRouteOptions = Pick<ReleasesRouteOptions, 'downloadRedirect' | 'storage'>;

/** Who asks: a user (token), or whoever holds a channel key. */
interface Credential {
  actor?: { userId: number; role: string; appLimit?: { appIds: number[] } };
  channelKey: string;
}

/** Breakpad names the file after the module without a Windows debug extension: app.pdb → app.sym. */
export function symName(module: string): string {
  return `${module.replace(/\.(pdb|exe|dll)$/i, '')}.sym`;
}

/** What the debuginfod protocol names; `source/<path>` is not kept by Hangar, so it is a 404 like any unknown id. */
const DEBUGINFOD_WANTS = new Set(['debuginfo', 'executable']);

/**
 * Symbol-server routes: where debuggers and crash tools look, without a script of their own.
 *
 * debuginfod (`DEBUGINFOD_URLS`): the client appends `/buildid/<id>/<debuginfo|executable>` to
 * the URL it is given. The credential is a token (`Authorization: Bearer`, `?token=`) or — since
 * a URL is all many clients can be given — a path segment holding a token or a channel key:
 * `DEBUGINFOD_URLS=https://hangar.example/debuginfod/<token or channel key>` (docs/decisions.md).
 * Answers: 302 to a presigned storage URL (which serves HEAD and ranges), 404 for an unknown id.
 */
export function symbolsRoutes(clients: ServiceClients, options: SymbolsRouteOptions): Router {
  const router = Router();

  router.get('/debuginfod/buildid/:build_id/:kind', async (req, res) => {
    const token = readToken(req);
    if (!token) throw new Unauthenticated('Missing access token: send Authorization: Bearer <token>, or put a token or channel key in the URL: /debuginfod/<credential>/buildid/…');
    req.user = await clients.users.authenticate({ token });
    await answer(req, res, { actor: actorOf(req), channelKey: '' });
  });

  // A token sent as well is still checked (a bad one is 401), as on the other channel-key routes.
  router.get('/debuginfod/:credential/buildid/:build_id/:kind', identifyIfToken(clients), async (req, res) => {
    await answer(req, res, await credentialOf(String(req.params.credential)));
  });

  // Anything else under /debuginfod (source files, sections, a malformed path): nothing to serve.
  router.use('/debuginfod', () => {
    throw new NotFound('Hangar serves /debuginfod/[<credential>/]buildid/<build-id>/debuginfo and …/executable');
  });

  /** A token when one authenticates, otherwise a channel key (checked by the service). */
  async function credentialOf(credential: string): Promise<Credential> {
    try {
      const user = await clients.users.authenticate({ token: credential });
      const appIds = user.grant?.appIds ?? [];
      return { actor: { userId: user.id, role: user.role, ...(appIds.length ? { appLimit: { appIds } } : {}) }, channelKey: '' };
    } catch (err) {
      if (!(err instanceof Unauthenticated)) throw err;
      return { channelKey: credential };
    }
  }

  async function answer(req: Request, res: Response, who: Credential): Promise<void> {
    const want = String(req.params.kind);
    if (!DEBUGINFOD_WANTS.has(want)) throw new NotFound(`Hangar serves debuginfo and executable, not ${want}`);
    const location = await clients.debugFiles.findSymbolFile({ ...who, debugId: String(req.params.build_id), want, fileName: '', expiresInSeconds: 300 });
    await sendSymbolFile(req, res, location, options);
  }

  // Breakpad's symbol-server layout, `<module>/<module id>/<module>.sym`, as symbol-upload tools
  // and minidump processors (Sentry, Socorro, minidump_stackwalk's HTTP supplier) read it.
  const breakpad = async (req: Request, res: Response, who: Credential) => {
    const module = String(req.params.module);
    if (String(req.params.sym) !== `${symName(module)}`) throw new NotFound(`Breakpad paths are <module>/<id>/${symName(module)}`);
    const location = await clients.debugFiles.findSymbolFile({ ...who, debugId: String(req.params.module_id), want: 'breakpad', fileName: module, expiresInSeconds: 300 });
    await sendSymbolFile(req, res, location, options);
  };
  router.get('/breakpad/:module/:module_id/:sym', async (req, res) => {
    const token = readToken(req);
    if (!token) throw new Unauthenticated('Missing access token: send Authorization: Bearer <token>, or put a token or channel key in the URL: /breakpad/<credential>/…');
    req.user = await clients.users.authenticate({ token });
    await breakpad(req, res, { actor: actorOf(req), channelKey: '' });
  });
  router.get('/breakpad/:credential/:module/:module_id/:sym', identifyIfToken(clients), async (req, res) => {
    await breakpad(req, res, await credentialOf(String(req.params.credential)));
  });
  // Apple: the whole dSYM zip that holds a Mach-O UUID (any case, dashes optional), for tools
  // that fetch a dSYM by the UUID a crash report names (llvm-symbolizer, atos, lldb after unzip).
  const dsym = async (req: Request, res: Response, who: Credential) => {
    const match = /^(.+)\.zip$/i.exec(String(req.params.file));
    if (!match) throw new NotFound('Hangar serves /apple/[<credential>/]dsym/<UUID>.zip');
    const location = await clients.debugFiles.findSymbolFile({ ...who, debugId: match[1]!, want: 'dsym', fileName: '', expiresInSeconds: 300 });
    await sendSymbolFile(req, res, location, options);
  };
  router.get('/apple/dsym/:file', async (req, res) => {
    const token = readToken(req);
    if (!token) throw new Unauthenticated('Missing access token: send Authorization: Bearer <token>, or put a token or channel key in the URL: /apple/<credential>/dsym/…');
    req.user = await clients.users.authenticate({ token });
    await dsym(req, res, { actor: actorOf(req), channelKey: '' });
  });
  router.get('/apple/:credential/dsym/:file', identifyIfToken(clients), async (req, res) => {
    await dsym(req, res, await credentialOf(String(req.params.credential)));
  });
  // Apple, one slice: Sentry's `unified` layout, `<first 2 hex digits>/<other 30>/debuginfo` of the
  // UUID without dashes, answered with the thin Mach-O DWARF file of that UUID (lldb and
  // llvm-symbolizer read it as it is). Slices are stored at upload; older uploads have none.
  const unified = async (req: Request, res: Response, who: Credential) => {
    const prefix = String(req.params.prefix);
    const rest = String(req.params.rest);
    if (!/^[0-9a-f]{2}$/i.test(prefix) || !/^[0-9a-f]{30}$/i.test(rest) || String(req.params.kind) !== 'debuginfo') {
      throw new NotFound('Hangar serves /apple/[<credential>/]unified/<2 hex>/<30 hex>/debuginfo for Mach-O UUIDs');
    }
    const location = await clients.debugFiles.findSymbolFile({ ...who, debugId: `${prefix}${rest}`, want: 'macho', fileName: '', expiresInSeconds: 300 });
    await sendSymbolFile(req, res, location, options);
  };
  router.get('/apple/unified/:prefix/:rest/:kind', async (req, res) => {
    const token = readToken(req);
    if (!token) throw new Unauthenticated('Missing access token: send Authorization: Bearer <token>, or put a token or channel key in the URL: /apple/<credential>/unified/…');
    req.user = await clients.users.authenticate({ token });
    await unified(req, res, { actor: actorOf(req), channelKey: '' });
  });
  router.get('/apple/:credential/unified/:prefix/:rest/:kind', identifyIfToken(clients), async (req, res) => {
    await unified(req, res, await credentialOf(String(req.params.credential)));
  });
  router.use('/apple', () => {
    throw new NotFound('Hangar serves /apple/[<credential>/]dsym/<UUID>.zip and /apple/[<credential>/]unified/<2 hex>/<30 hex>/debuginfo');
  });

  // Microsoft's symbol-server layout, `<file>/<GUID><age>/<file>`, which Visual Studio, WinDbg and
  // Sentry read; SSQP asks the same path lowercased, so names and ids match in any case.
  const microsoft = async (req: Request, res: Response, who: Credential) => {
    const file = String(req.params.file);
    if (String(req.params.again).toLowerCase() !== file.toLowerCase()) throw new NotFound('Microsoft symbol-server paths are <file>/<GUID><age>/<file>');
    const location = await clients.debugFiles.findSymbolFile({ ...who, debugId: String(req.params.id), want: 'pdb', fileName: file, expiresInSeconds: 300 });
    await sendSymbolFile(req, res, location, options);
  };
  router.get('/symbols/:file/:id/:again', async (req, res) => {
    const token = readToken(req);
    if (!token) throw new Unauthenticated('Missing access token: send Authorization: Bearer <token>, or put a token or channel key in the URL: /symbols/<credential>/…');
    req.user = await clients.users.authenticate({ token });
    await microsoft(req, res, { actor: actorOf(req), channelKey: '' });
  });
  router.get('/symbols/:credential/:file/:id/:again', identifyIfToken(clients), async (req, res) => {
    await microsoft(req, res, await credentialOf(String(req.params.credential)));
  });
  router.use('/symbols', () => {
    throw new NotFound('Hangar serves /symbols/[<credential>/]<file>/<GUID><age>/<file>');
  });

  router.use('/breakpad', () => {
    throw new NotFound('Hangar serves /breakpad/[<credential>/]<module>/<module id>/<module without .pdb/.exe/.dll>.sym');
  });

  return router;
}

/**
 * 302 to the storage URL; with DOWNLOAD_REDIRECT=false the bytes pass through the gateway,
 * HEAD and a single `Range: bytes=a-b` included (debuginfod clients and symbolizers may ask).
 */
async function sendSymbolFile(req: Request, res: Response, location: debugFiles.SymbolFileLocation, options: SymbolsRouteOptions): Promise<void> {
  if (options.downloadRedirect) {
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
  const stream = start === 0 && end === size - 1 ? await options.storage.getStream(location.objectKey) : await options.storage.getRange(location.objectKey, start, end - start + 1);
  stream.pipe(res);
}
