import { PermissionDenied } from '@hangar/errors';
import { readAuditQuery } from '../../audit/audit-query';
import { ADMIN } from '../../auth/token-scopes';
import { actorOf, currentUser } from '../../http/authenticate.middleware';
import { publicBaseUrl } from '../../http/base-url';
import { queryText } from '../../http/input';
import { parsePage, setPageHeaders } from '../../http/pagination';
import { PAGE_HEADERS, arrayOf, errors, ok, param, query, ref } from '../../openapi/openapi-parts';
import { operation } from '../../operations/declare';
import { presentAuditEntry } from '../../presenters/audit.presenter';

/**
 * The audit log, read only: no operation writes or removes an entry. Global admins read it all;
 * an app's admins read that app's entries (`app_id` required), checked by the apps service first.
 */
export const auditOperations = [
  operation({
    method: 'get',
    path: '/api/audit',
    operationId: 'listAuditEntries',
    tag: 'Audit',
    summary: 'Writes through the API, newest first (admins; app admins with app_id)',
    scopes: ADMIN,
    params: {},
    responses: { '200': ok('Entries', arrayOf(ref('AuditEntry')), PAGE_HEADERS), ...errors(401, 403, 422, 503) },
    openApi: {
      parameters: [
        query('day', 'A UTC day, YYYY-MM-DD (default: today, when neither day nor from/to is given)', false, { type: 'string' }),
        query('from', 'First UTC day of a range, YYYY-MM-DD (with to; at most 31 days)', false, { type: 'string' }),
        query('to', 'Last UTC day of the range, inclusive', false, { type: 'string' }),
        query('user_id', 'Only writes by this user', false, { type: 'string' }),
        query('app_id', "Only writes on this app: required unless the caller is a global admin, who then needs the app's admin role", false, { type: 'string' }),
        query('operation', 'Only this operationId', false, { type: 'string' }),
        param('page'),
        param('per_page'),
      ],
    },
    async handle({ clients, publicBaseUrl: base, req, res }) {
      const actor = actorOf(req);
      const text = (name: string) => queryText(req, name);
      const appIdText = text('app_id');
      // The right before the values (PRODUCT §2): a non-admin without an app is refused whatever else is asked.
      const wholeLog = actor.role === 'admin' && !actor.appLimit;
      if (!wholeLog && !appIdText) throw new PermissionDenied('Only admins read the whole audit log; app admins ask for their app with app_id');
      const audit = readAuditQuery({ day: text('day'), from: text('from'), to: text('to'), user_id: text('user_id'), app_id: appIdText, operation: text('operation') });
      if (!wholeLog) await clients.apps.checkPermission({ actor, appId: audit.appId!, action: 'audit.read' });
      const page = parsePage(req);
      const result = await clients.users.listAuditEntries({ actor, ...audit, page });
      setPageHeaders(req, res, page, result.total, publicBaseUrl(req, base));
      res.json(result.entries.map((e) => presentAuditEntry(e, currentUser(req).timezone)));
    },
  }),
];
