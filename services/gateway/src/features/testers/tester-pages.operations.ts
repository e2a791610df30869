import type { Response } from 'express';
import { Type } from '@sinclair/typebox';
import { isDomainError } from '@hangar/errors';
import { queryText } from '../../http/input';
import { localPath } from '../../http/local-path';
import { sendInstallPage } from '../../install/page-headers';
import { NO_TOKEN, htmlPage, query } from '../../openapi/openapi-parts';
import { operation } from '../../operations/declare';
import { messagePage } from '../../install/pages';
import { checkYourMailPage, joinPage, testerHomePage, testerSignInPage, unsubscribePage } from './tester-pages';
import { clearTesterCookie, readTesterCookie, setTesterCookie, testerOf } from './tester-session';
import { testerView } from './tester-view';

const TAG = 'Testers';


/** A refusal the tester can act on (a used link, a full join link, a bad address) is a page saying so; an outage stays the error handler's 503. */
async function refusedAsPage(res: Response, status: number, pageOf: (message: string) => string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (isDomainError(err) && err.code !== 'unavailable' && err.code !== 'internal') return sendInstallPage(res, status, pageOf(err.message));
    throw err;
  }
}

/**
 * The tester's pages, phone first and without script (the install pages' frame and headers): the
 * sign-in link of an e-mail, the tester's builds, a group's join form, sign-out. They do what the
 * tester API does (tester-access.operations.ts), through the same apps service calls.
 */
export const testerPageOperations = [
  operation({
    method: 'get',
    path: '/tester/unsubscribe',
    operationId: 'unsubscribePage',
    tag: TAG,
    summary: "A new-build e-mail's unsubscribe link: asks to confirm (a mail scanner opening links unsubscribes nobody)",
    scopes: null,
    params: {},
    page: true,
    responses: { '200': htmlPage('The confirmation form') },
    openApi: { security: NO_TOKEN, parameters: [query('tester', 'The tester (membership) id', true), query('key', 'Its unsubscribe key', true)] },
    async handle({ req, res }) {
      sendInstallPage(res, 200, unsubscribePage());
    },
  }),
  operation({
    method: 'post',
    path: '/tester/unsubscribe',
    operationId: 'unsubscribe',
    tag: TAG,
    summary: 'No more new-build e-mails to this tester of this group (one-click, RFC 8058, too)',
    scopes: null,
    params: {},
    page: true,
    body: { fields: { tester: Type.String(), key: Type.String() }, required: ['tester', 'key'] },
    responses: { '200': htmlPage('Unsubscribed'), '404': htmlPage('An unknown link') },
    openApi: { security: NO_TOKEN },
    handle: ({ body, clients, req, res }) =>
      refusedAsPage(res, 404, (message) => messagePage('Not found', message), async () => {
        // The form's fields, or the query of the link itself (a mail client's one-click POST).
        const tester = body.tester ?? queryText(req, 'tester') ?? '';
        const key = body.key ?? queryText(req, 'key') ?? '';
        await clients.apps.unsubscribeTester({ testerId: /^\d{1,15}$/.test(tester) ? Number(tester) : 0, key });
        sendInstallPage(res, 200, messagePage('Unsubscribed', 'You will get no more e-mails about new builds of this group. Your builds stay where they are.'));
      }),
  }),
  operation({
    method: 'get',
    path: '/tester/sign-in',
    operationId: 'openTesterSignInLink',
    tag: TAG,
    summary: "An invitation's single-use sign-in link: sets the `hangar_tester` cookie and opens the tester's builds",
    scopes: null,
    params: {},
    page: true,
    responses: {
      '303': { description: 'Signed in: to `next`, else `/tester`, with the cookie', headers: { Location: { required: true, schema: { type: 'string' } }, 'Set-Cookie': { required: true, schema: { type: 'string' } } } },
      '401': htmlPage('The link was used, expired or never existed: the form to ask for a new one'),
    },
    openApi: {
      security: NO_TOKEN,
      parameters: [query('token', 'The secret of the e-mailed link', true), query('next', 'A path of this site to open once signed in (a new build\'s install page); anything else is ignored')],
    },
    handle: ({ clients, req, res }) =>
      refusedAsPage(res, 401, testerSignInPage, async () => {
        const session = await clients.apps.redeemTesterSignIn({ secret: queryText(req, 'token') ?? '', userAgent: String(req.headers['user-agent'] ?? '') });
        setTesterCookie(req, res, session.secret, session.expiresAtMs);
        res.redirect(303, localPath(queryText(req, 'next')) ?? '/tester');
      }),
  }),
  operation({
    method: 'post',
    path: '/tester/sign-in',
    operationId: 'requestTesterSignInPage',
    tag: TAG,
    summary: 'The sign-in form: a new link is e-mailed to a tester (the same page for any address)',
    scopes: null,
    params: {},
    page: true,
    body: { fields: { email: Type.String() }, required: ['email'] },
    responses: { '202': htmlPage('Check your e-mail'), '422': htmlPage('Not an address: the form again') },
    openApi: { security: NO_TOKEN },
    handle: ({ body, clients, res }) =>
      refusedAsPage(res, 422, testerSignInPage, async () => {
        await clients.apps.requestTesterSignIn({ email: body.email ?? '' });
        sendInstallPage(res, 202, checkYourMailPage());
      }),
  }),
  operation({
    method: 'get',
    path: '/tester',
    operationId: 'testerHomePage',
    tag: TAG,
    summary: "The signed-in tester's builds, channel by channel; without a session, the sign-in form",
    scopes: null,
    params: {},
    page: true,
    responses: { '200': htmlPage('The builds, or the sign-in form'), '401': htmlPage('The session ended (removed, signed out, expired): the sign-in form') },
    openApi: { security: NO_TOKEN },
    async handle({ clients, req, res }) {
      const tester = await testerOf(clients, req);
      if (tester) {
        const view = await testerView(clients, tester);
        return sendInstallPage(res, 200, testerHomePage(view));
      }
      const ended = readTesterCookie(req) !== undefined;
      sendInstallPage(res, ended ? 401 : 200, testerSignInPage(ended ? 'Your tester session has ended. Enter your address for a new sign-in link.' : undefined));
    },
  }),
  operation({
    method: 'post',
    path: '/tester/sign-out',
    operationId: 'testerSignOutPage',
    tag: TAG,
    summary: "Sign the tester out: ends the cookie's session",
    scopes: null,
    params: {},
    page: true,
    responses: { '303': { description: 'To `/tester`', headers: { Location: { required: true, schema: { type: 'string' } } } } },
    openApi: { security: NO_TOKEN },
    async handle({ clients, req, res }) {
      const secret = readTesterCookie(req);
      if (secret) await clients.apps.endTesterSession({ secret, sessionId: 0 });
      clearTesterCookie(req, res);
      res.redirect(303, '/tester');
    },
  }),
  operation({
    method: 'get',
    path: '/tester/join',
    operationId: 'joinTesterGroupPage',
    tag: TAG,
    summary: "A group's join link: the form for an address",
    scopes: null,
    params: {},
    page: true,
    responses: { '200': htmlPage('The form') },
    openApi: { security: NO_TOKEN, parameters: [query('token', "The join link's secret", true)] },
    async handle({ res }) {
      sendInstallPage(res, 200, joinPage());
    },
  }),
  operation({
    method: 'post',
    path: '/tester/join',
    operationId: 'joinTesterGroupByPage',
    tag: TAG,
    summary: 'The join form: the address joins the group and is e-mailed a sign-in link',
    scopes: null,
    params: {},
    page: true,
    // The page's form posts to the link itself (the token in the query); a token in the body is read too.
    body: { fields: { token: Type.String(), email: Type.String() }, required: ['email'] },
    responses: { '202': htmlPage('Check your e-mail'), '422': htmlPage('The link is unknown, expired or full, or the address is not one: the form again') },
    openApi: { security: NO_TOKEN, parameters: [query('token', "The join link's secret, when the body has none (the page's form posts to the link)", false)] },
    handle: ({ body, clients, req, res }) =>
      refusedAsPage(res, 422, (message) => joinPage(message), async () => {
        await clients.apps.joinTesterGroup({ secret: body.token ?? queryText(req, 'token') ?? '', email: body.email ?? '' });
        sendInstallPage(res, 202, checkYourMailPage());
      }),
  }),
];
