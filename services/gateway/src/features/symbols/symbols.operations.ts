import { NotFound } from '@hangar/errors';
import type { debugFiles } from '@hangar/proto';
import { READ } from '../../auth/token-scopes';
import { NO_TOKEN, downloadResponses, errors } from '../../openapi/openapi-parts';
import type { Operation } from '../../openapi/schema-types';
import { type CallContext, type IdParam, operation, textParam } from '../../operations/declare';
import { type Credential, pathCredential, sendSymbolFile, symName, tokenCredential } from './symbol-files';

/** What the debuginfod protocol names; `source/<path>` is not kept by Hangar, so it is a 404 like any unknown id. */
const DEBUGINFOD_WANTS = new Set(['debuginfo', 'executable']);

const SYMBOL_RESPONSES: Operation['responses'] = {
  ...downloadResponses('the file', 'application/octet-stream'),
  '206': { description: 'A range of the file, streamed by the gateway (DOWNLOAD_REDIRECT=false)', content: { 'application/octet-stream': {} } },
  ...errors(401, 403, 404, 422, 503),
};
const TOKEN_ONLY: Operation['security'] = [{ bearer: [] }, { token: [] }];

interface Described {
  operationId: string;
  summary: string;
  description?: string;
}

/** One symbol-server layout, served twice: with a token (header or `?token=`) and with a credential in the path. */
interface Layout {
  /** Its first path segment: `/debuginfod`. */
  root: string;
  /** The path after it (and after the credential): `/buildid/{build_id}/{kind}`. */
  rest: string;
  params: Record<string, IdParam<'text'>>;
  credential: string;
  withToken: Described;
  withCredential: Described;
  /** Where a token-less caller is told to put a credential instead. */
  credentialPath: string;
  /** The file the path names, for this caller; a path the layout does not name is a 404. */
  find(call: CallContext, params: Record<string, string>, who: Credential): Promise<debugFiles.SymbolFileLocation>;
}

const CREDENTIAL = 'An access token or a channel key';
const find = (call: CallContext, who: Credential, debugId: string, want: string, fileName = '') =>
  call.clients.debugFiles.findSymbolFile({ ...who, debugId, want, fileName, expiresInSeconds: 300 });

const LAYOUTS: Layout[] = [
  {
    // debuginfod (`DEBUGINFOD_URLS`): the client appends `/buildid/<id>/<debuginfo|executable>` to the URL it is given.
    root: '/debuginfod',
    rest: '/buildid/{build_id}/{kind}',
    params: { build_id: textParam('GNU build-id, hex'), kind: textParam('debuginfo or executable', { type: 'string', enum: ['debuginfo', 'executable'] }) },
    credential: `${CREDENTIAL}, for clients that can only be given a URL`,
    withToken: {
      operationId: 'debuginfodWithToken',
      summary: 'debuginfod: an ELF file by GNU build-id',
      description: 'What a debuginfod client (`DEBUGINFOD_URLS`) asks for. `debuginfo`: a file with DWARF; `executable`: a file with code. Files of every app the token may read.',
    },
    withCredential: {
      operationId: 'debuginfodWithCredentialInPath',
      summary: 'debuginfod, the credential in the URL',
      description: "Set `DEBUGINFOD_URLS=<origin>/debuginfod/<token or channel key>`. A channel key finds that channel's files only.",
    },
    credentialPath: '/debuginfod/<credential>/buildid/…',
    find(call, params, who) {
      if (!DEBUGINFOD_WANTS.has(params.kind!)) throw new NotFound(`Hangar serves debuginfo and executable, not ${params.kind}`);
      return find(call, who, params.build_id!, params.kind!);
    },
  },
  {
    // Breakpad's symbol-server layout, as symbol-upload tools and minidump processors (Sentry,
    // Socorro, minidump_stackwalk's HTTP supplier) read it.
    root: '/breakpad',
    rest: '/{module}/{module_id}/{sym}',
    params: {
      module: textParam("The module's debug file name (`app`, `app.pdb`)"),
      module_id: textParam('The module id: GUID and age, 33 to 40 hex digits'),
      sym: textParam('The module name without .pdb/.exe/.dll, then `.sym`'),
    },
    credential: CREDENTIAL,
    withToken: { operationId: 'breakpadWithToken', summary: 'Breakpad: a .sym file by module and module id', description: 'The layout minidump processors read: `<module>/<module id>/<module without .pdb/.exe/.dll>.sym`.' },
    withCredential: { operationId: 'breakpadWithCredentialInPath', summary: 'Breakpad, the credential in the URL', description: 'For symbol-server settings that take a URL only: `<origin>/breakpad/<token or channel key>`.' },
    credentialPath: '/breakpad/<credential>/…',
    find(call, params, who) {
      if (params.sym !== symName(params.module!)) throw new NotFound(`Breakpad paths are <module>/<id>/${symName(params.module!)}`);
      return find(call, who, params.module_id!, 'breakpad', params.module);
    },
  },
  {
    // The whole dSYM zip that holds a Mach-O UUID (any case, dashes optional), for tools that fetch
    // a dSYM by the UUID a crash report names (llvm-symbolizer, atos, lldb after unzip).
    root: '/apple',
    rest: '/dsym/{file}',
    params: { file: textParam('`<UUID>.zip`') },
    credential: CREDENTIAL,
    withToken: { operationId: 'dsymByUuidWithToken', summary: 'Apple: the dSYM zip holding a Mach-O UUID', description: "The whole uploaded dSYM zip, found by any of its slices' UUIDs (any case, dashes optional)." },
    withCredential: { operationId: 'dsymByUuidWithCredentialInPath', summary: 'Apple dSYM by UUID, the credential in the URL' },
    credentialPath: '/apple/<credential>/dsym/…',
    find(call, params, who) {
      const match = /^(.+)\.zip$/i.exec(params.file!);
      if (!match) throw new NotFound('Hangar serves /apple/[<credential>/]dsym/<UUID>.zip');
      return find(call, who, match[1]!, 'dsym');
    },
  },
  {
    // One slice: Sentry's `unified` layout, answered with the thin Mach-O DWARF file of that UUID
    // (lldb and llvm-symbolizer read it as it is). Slices are stored at upload; older uploads have none.
    root: '/apple',
    rest: '/unified/{prefix}/{rest}/{kind}',
    params: {
      prefix: textParam('The first 2 hex digits of the UUID'),
      rest: textParam('The other 30 hex digits'),
      kind: textParam('debuginfo', { type: 'string', enum: ['debuginfo'] }),
    },
    credential: CREDENTIAL,
    withToken: {
      operationId: 'machoSliceUnifiedWithToken',
      summary: "Apple: one Mach-O slice of a dSYM in Sentry's unified layout",
      description: 'The thin Mach-O DWARF file of one UUID (lowercase hex without dashes: the first 2 digits, then the other 30), stored when its dSYM was uploaded.',
    },
    withCredential: {
      operationId: 'machoSliceUnifiedWithCredentialInPath',
      summary: 'Apple Mach-O slice (unified layout), the credential in the URL',
      description: "For Sentry's custom HTTP repository with layout `unified`: `<origin>/apple/<token or channel key>/unified`.",
    },
    credentialPath: '/apple/<credential>/unified/…',
    find(call, params, who) {
      if (!/^[0-9a-f]{2}$/i.test(params.prefix!) || !/^[0-9a-f]{30}$/i.test(params.rest!) || params.kind !== 'debuginfo') {
        throw new NotFound('Hangar serves /apple/[<credential>/]unified/<2 hex>/<30 hex>/debuginfo for Mach-O UUIDs');
      }
      return find(call, who, `${params.prefix}${params.rest}`, 'macho');
    },
  },
  {
    // Microsoft's layout, which Visual Studio, WinDbg and Sentry read; SSQP asks the same path
    // lowercased, so names and ids match in any case.
    root: '/symbols',
    rest: '/{file}/{id}/{again}',
    params: {
      file: textParam('The file name as uploaded (`app.pdb`, `app.exe`)'),
      id: textParam("A PDB's GUID (32 hex digits) then its age in hex, or a PE's TimeDateStamp (8 hex digits) then its SizeOfImage in hex"),
      again: textParam('The file name again'),
    },
    credential: CREDENTIAL,
    withToken: {
      operationId: 'microsoftSymbolsWithToken',
      summary: 'Microsoft symbol server: a PDB by GUID and age, a PE by code id',
      description: 'The layout Visual Studio, WinDbg and Sentry read (`<file>/<GUID><age>/<file>`), in any case (SSQP lowercases it).',
    },
    withCredential: {
      operationId: 'microsoftSymbolsWithCredentialInPath',
      summary: 'Microsoft symbol server, the credential in the URL',
      description: 'For a symbol path that takes a URL only: `srv*C:\\symbols*<origin>/symbols/<token or channel key>`.',
    },
    credentialPath: '/symbols/<credential>/…',
    find(call, params, who) {
      if (params.again!.toLowerCase() !== params.file!.toLowerCase()) throw new NotFound('Microsoft symbol-server paths are <file>/<GUID><age>/<file>');
      return find(call, who, params.id!, 'pdb', params.file);
    },
  },
];

const openApiOf = (security: Operation['security'], { description }: Described): Partial<Operation> => ({ security, ...(description ? { description } : {}) });

/**
 * Symbol servers: where debuggers and crash tools look, without a script of their own
 * (docs/symbol-servers.md). The credential is a token (`Authorization: Bearer`, `?token=`) or —
 * since a URL is all many clients can be given — a path segment holding a token or a channel key
 * (docs/decisions.md); a token sent beside one in the path is still checked (a bad one is 401).
 * Answers: 302 to a presigned storage URL (which serves HEAD and ranges), 404 for an unknown id.
 */
export const symbolOperations = LAYOUTS.flatMap((layout) => [
  operation({
    method: 'get',
    path: `${layout.root}${layout.rest}`,
    tag: 'Symbol servers',
    ...layout.withToken,
    scopes: READ,
    // Only the header or `?token=`: no session, no channel key.
    caller: 'handler',
    params: layout.params,
    responses: SYMBOL_RESPONSES,
    openApi: openApiOf(TOKEN_ONLY, layout.withToken),
    async handle(call) {
      const who = await tokenCredential(call.clients, call.req, layout.credentialPath);
      await sendSymbolFile(call.req, call.res, await layout.find(call, call.params, who), call.files);
    },
  }),
  operation({
    method: 'get',
    path: `${layout.root}/{credential}${layout.rest}`,
    tag: 'Symbol servers',
    ...layout.withCredential,
    scopes: READ,
    caller: 'optional',
    params: { credential: textParam(layout.credential), ...layout.params },
    responses: SYMBOL_RESPONSES,
    openApi: openApiOf(NO_TOKEN, layout.withCredential),
    async handle(call) {
      const { credential, ...params } = call.params;
      const who = await pathCredential(call.clients, credential);
      await sendSymbolFile(call.req, call.res, await layout.find(call, params, who), call.files);
    },
  }),
]);
