import { Type } from '@sinclair/typebox';
import { InvalidArgument } from '@hangar/errors';
import { MANAGE, READ } from '../../auth/token-scopes';
import { actorOf } from '../../http/authenticate.middleware';
import { publicBaseUrl } from '../../http/base-url';
import { DELETED as DELETED_RESPONSE, READ_WITH_TOKEN, WRITE_WITH_TOKEN, arrayOf, errors, ok, ref } from '../../openapi/openapi-parts';
import { DELETED_ANSWER } from '../../operations/answers';
import { idParam, operation } from '../../operations/declare';
import { joinLinkUrl, presentJoinLink, presentTester, presentTesterGroup } from './tester.presenter';

const TAG = 'Testers';

/** Channel ids: a JSON array, or the text of a form (`1,2`). */
const CHANNEL_IDS = Type.Unsafe<number[] | string>({ type: ['array', 'string'], items: { type: 'integer' }, description: "The app's channels the group opens: ids, as an array or comma-separated" });
/** Addresses: one text (a pasted list or a CSV export) or several. */
const EMAILS = Type.Unsafe<string | string[]>({
  type: ['string', 'array'],
  items: { type: 'string' },
  description: 'E-mail addresses separated by commas, semicolons or new lines, or a CSV export (the column holding them; a header line is skipped); at most 1,000',
});

function channelIdsIn(value: number[] | string | undefined): number[] {
  if (value === undefined) return [];
  const parts = typeof value === 'string' ? value.split(/[\s,]+/).filter(Boolean) : value;
  return parts.map((part) => {
    const id = typeof part === 'number' ? part : /^\d{1,15}$/.test(part) ? Number(part) : NaN;
    if (!Number.isSafeInteger(id) || id < 1) throw InvalidArgument.field('channel_ids', 'must be channel ids (positive integers)');
    return id;
  });
}

/** Adding a list of 1,000 addresses writes 1,000 memberships (about 3 queries each). */
const ADD_TESTERS_DEADLINE_MS = 120_000;

const app = { app_id: idParam('App id') };
const group = { app_id: idParam('App id'), group_id: idParam('Tester group id') };

/** An app's tester groups, their testers and join links: for the app's admins (the apps service checks `testers.manage`). */
export const testerGroupOperations = [
  operation({
    method: 'get',
    path: '/api/apps/{app_id}/tester_groups',
    operationId: 'listTesterGroups',
    tag: TAG,
    summary: "An app's tester groups, with each tester's state",
    scopes: READ,
    params: app,
    responses: { '200': ok('Tester groups', arrayOf(ref('TesterGroup'))), ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      const { groups } = await clients.apps.listTesterGroups({ actor: actorOf(req), appId: params.app_id });
      res.json(groups.map(presentTesterGroup));
    },
  }),
  operation({
    method: 'post',
    path: '/api/apps/{app_id}/tester_groups',
    operationId: 'createTesterGroup',
    tag: TAG,
    summary: 'Create a tester group',
    scopes: MANAGE,
    params: app,
    body: { fields: { name: Type.String(), channel_ids: CHANNEL_IDS }, required: ['name'] },
    responses: { '201': ok('Created', ref('TesterGroup')), ...errors(...WRITE_WITH_TOKEN) },
    async handle({ params, body, clients, req, res }) {
      const created = await clients.apps.createTesterGroup({ actor: actorOf(req), appId: params.app_id, name: body.name ?? '', channelIds: channelIdsIn(body.channel_ids) });
      res.status(201).json(presentTesterGroup(created));
    },
  }),
  operation({
    method: 'get',
    path: '/api/apps/{app_id}/tester_groups/{group_id}',
    operationId: 'getTesterGroup',
    tag: TAG,
    summary: 'A tester group, with each tester\'s state',
    scopes: READ,
    params: group,
    responses: { '200': ok('The group', ref('TesterGroup')), ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      res.json(presentTesterGroup(await clients.apps.getTesterGroup({ actor: actorOf(req), appId: params.app_id, groupId: params.group_id })));
    },
  }),
  operation({
    method: 'patch',
    path: '/api/apps/{app_id}/tester_groups/{group_id}',
    operationId: 'updateTesterGroup',
    tag: TAG,
    summary: "Rename a tester group or replace its channels",
    scopes: MANAGE,
    params: group,
    body: { fields: { name: Type.String(), channel_ids: CHANNEL_IDS } },
    responses: { '200': ok('Updated', ref('TesterGroup')), ...errors(...WRITE_WITH_TOKEN) },
    async handle({ params, body, clients, req, res }) {
      const updated = await clients.apps.updateTesterGroup({
        actor: actorOf(req),
        appId: params.app_id,
        groupId: params.group_id,
        ...(body.name !== undefined ? { name: body.name } : {}),
        setChannelIds: body.channel_ids !== undefined,
        channelIds: channelIdsIn(body.channel_ids),
      });
      res.json(presentTesterGroup(updated));
    },
  }),
  operation({
    method: 'delete',
    path: '/api/apps/{app_id}/tester_groups/{group_id}',
    operationId: 'deleteTesterGroup',
    tag: TAG,
    summary: 'Delete a tester group: its testers in no other group are signed out at once',
    scopes: MANAGE,
    params: group,
    responses: { '200': DELETED_RESPONSE, ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      await clients.apps.deleteTesterGroup({ actor: actorOf(req), appId: params.app_id, groupId: params.group_id });
      res.json(DELETED_ANSWER);
    },
  }),
  operation({
    method: 'post',
    path: '/api/apps/{app_id}/tester_groups/{group_id}/testers',
    operationId: 'addTesters',
    tag: TAG,
    summary: 'Add testers by e-mail: each new one is sent a sign-in link',
    scopes: MANAGE,
    params: group,
    body: { fields: { emails: EMAILS }, required: ['emails'] },
    responses: { '201': ok('Added', ref('TestersAdded')), ...errors(...WRITE_WITH_TOKEN) },
    async handle({ params, body, clients, publicBaseUrl: configured, req, res }) {
      const emails = body.emails === undefined ? [] : typeof body.emails === 'string' ? [body.emails] : body.emails;
      // Up to 1,000 memberships in one call: more time than a single record's call gets.
      const result = await clients.apps.addTesters({ actor: actorOf(req), appId: params.app_id, groupId: params.group_id, emails, linkBase: publicBaseUrl(req, configured) }, { deadline: ADD_TESTERS_DEADLINE_MS });
      res.status(201).json({ added: result.added.map(presentTester), already_members: result.alreadyMembers });
    },
  }),
  operation({
    method: 'delete',
    path: '/api/apps/{app_id}/tester_groups/{group_id}/testers/{tester_id}',
    operationId: 'removeTester',
    tag: TAG,
    summary: 'Remove a tester: in no other group, their sessions and install links end at once',
    scopes: MANAGE,
    params: { ...group, tester_id: idParam('Tester id') },
    responses: { '200': DELETED_RESPONSE, ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      await clients.apps.removeTester({ actor: actorOf(req), appId: params.app_id, groupId: params.group_id, testerId: params.tester_id });
      res.json(DELETED_ANSWER);
    },
  }),
  operation({
    method: 'get',
    path: '/api/apps/{app_id}/tester_groups/{group_id}/join_links',
    operationId: 'listJoinLinks',
    tag: TAG,
    summary: "A tester group's join links (without their URLs, which are shown once)",
    scopes: READ,
    params: group,
    responses: { '200': ok('Join links', arrayOf(ref('JoinLink'))), ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      const { links } = await clients.apps.listJoinLinks({ actor: actorOf(req), appId: params.app_id, groupId: params.group_id });
      res.json(links.map((link) => presentJoinLink(link)));
    },
  }),
  operation({
    method: 'post',
    path: '/api/apps/{app_id}/tester_groups/{group_id}/join_links',
    operationId: 'createJoinLink',
    tag: TAG,
    summary: 'A shareable link to join the group by e-mail (its URL answered once)',
    scopes: MANAGE,
    params: group,
    body: {
      fields: {
        expires_at: Type.String({ description: 'ISO 8601; absent: never expires' }),
        seats: Type.Unsafe<number | string>({ type: ['integer', 'string'], description: 'How many may join by it; 0 or absent: no limit' }),
      },
    },
    responses: { '201': ok('Created: `url` is shown only now', ref('JoinLink')), ...errors(...WRITE_WITH_TOKEN) },
    async handle({ params, body, clients, publicBaseUrl: configured, req, res }) {
      const expiresAtMs = body.expires_at ? Date.parse(body.expires_at) : 0;
      if (Number.isNaN(expiresAtMs)) throw InvalidArgument.field('expires_at', 'must be an ISO 8601 date and time');
      const seats = body.seats === undefined || body.seats === '' ? 0 : Number(body.seats);
      if (!Number.isInteger(seats)) throw InvalidArgument.field('seats', 'must be a whole number');
      const base = publicBaseUrl(req, configured);
      const link = await clients.apps.createJoinLink({ actor: actorOf(req), appId: params.app_id, groupId: params.group_id, expiresAtMs, seats, linkBase: base });
      res.status(201).json(presentJoinLink(link, joinLinkUrl(base, link.secret)));
    },
  }),
  operation({
    method: 'delete',
    path: '/api/apps/{app_id}/tester_groups/{group_id}/join_links/{link_id}',
    operationId: 'deleteJoinLink',
    tag: TAG,
    summary: 'Delete a join link: it lets nobody in any more (who joined stays)',
    scopes: MANAGE,
    params: { ...group, link_id: idParam('Join link id') },
    responses: { '200': DELETED_RESPONSE, ...errors(...READ_WITH_TOKEN) },
    async handle({ params, clients, req, res }) {
      await clients.apps.deleteJoinLink({ actor: actorOf(req), appId: params.app_id, groupId: params.group_id, linkId: params.link_id });
      res.json(DELETED_ANSWER);
    },
  }),
];
