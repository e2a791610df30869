import { Type } from '@sinclair/typebox';
import { Unauthenticated } from '@hangar/errors';
import { NO_TOKEN, TESTER_COOKIE, errors, ok, ref } from '../../openapi/openapi-parts';
import { operation } from '../../operations/declare';
import { clearTesterCookie, readTesterCookie, testerOf } from './tester-session';
import { presentTesterView, testerView } from './tester-view';

const TAG = 'Testers';
/** The same answer whether or not the address is a tester: nobody learns who is. */
const MAIL_ON_ITS_WAY = { message: 'If the address belongs to a tester, a sign-in link is on its way to it.' };

/**
 * The tester's side of the API: joining by a group's link, asking for a sign-in link, the tester
 * view and signing out. No token: a tester has none. The sign-in link itself is a page
 * (`GET /tester/sign-in?token=…`, tester-pages.operations.ts) that sets the `hangar_tester` cookie.
 */
export const testerAccessOperations = [
  operation({
    method: 'post',
    path: '/api/tester/join',
    operationId: 'joinTesterGroup',
    tag: TAG,
    summary: "Join a tester group by its join link's token: a sign-in link is e-mailed to the address",
    scopes: null,
    params: {},
    body: { fields: { token: Type.String({ description: "The join link's `token`" }), email: Type.String() }, required: ['token', 'email'] },
    responses: { '202': ok('Accepted: the sign-in link goes by e-mail', ref('Message')), ...errors(404, 422, 503) },
    openApi: { security: NO_TOKEN },
    async handle({ body, clients, res }) {
      await clients.apps.joinTesterGroup({ secret: body.token ?? '', email: body.email ?? '' });
      res.status(202).json(MAIL_ON_ITS_WAY);
    },
  }),
  operation({
    method: 'post',
    path: '/api/tester/sign_in',
    operationId: 'requestTesterSignIn',
    tag: TAG,
    summary: 'Ask for a new sign-in link by e-mail (the same answer for any address)',
    scopes: null,
    params: {},
    body: { fields: { email: Type.String() }, required: ['email'] },
    responses: { '202': ok('Accepted', ref('Message')), ...errors(422, 503) },
    openApi: { security: NO_TOKEN },
    async handle({ body, clients, res }) {
      await clients.apps.requestTesterSignIn({ email: body.email ?? '' });
      res.status(202).json(MAIL_ON_ITS_WAY);
    },
  }),
  operation({
    method: 'get',
    path: '/api/tester',
    operationId: 'getTesterView',
    tag: TAG,
    summary: "The signed-in tester's channels, their newest builds, and the tester's registered devices",
    scopes: null,
    params: {},
    responses: { '200': ok('The tester view', ref('TesterView')), ...errors(401, 503) },
    openApi: { security: TESTER_COOKIE },
    async handle({ clients, req, res }) {
      const tester = await testerOf(clients, req);
      if (!tester) throw new Unauthenticated('Not signed in as a tester: open the sign-in link of your invitation');
      res.setHeader('Cache-Control', 'no-store');
      res.json(presentTesterView(await testerView(clients, tester)));
    },
  }),
  operation({
    method: 'delete',
    path: '/api/tester/session',
    operationId: 'endTesterSession',
    tag: TAG,
    summary: "Sign the tester out (ends the cookie's session)",
    scopes: null,
    params: {},
    responses: { '204': { description: 'Signed out' }, ...errors(503) },
    openApi: { security: TESTER_COOKIE },
    async handle({ clients, req, res }) {
      const secret = readTesterCookie(req);
      if (secret) await clients.apps.endTesterSession({ secret, sessionId: 0 });
      clearTesterCookie(req, res);
      res.status(204).end();
    },
  }),
];
