import { appOperations } from '../features/apps/apps.operations';
import { auditOperations } from '../features/audit/audit.operations';
import { channelOperations } from '../features/channels/channels.operations';
import { debugFileOperations } from '../features/debug-files/debug-files.operations';
import { collaboratorOperations } from '../features/collaborators/collaborators.operations';
import { releaseRecordOperations } from '../features/releases/release-records.operations';
import { schemeOperations } from '../features/schemes/schemes.operations';
import { sessionOperations } from '../features/sessions/sessions.operations';
import { tokenOperations } from '../features/users/tokens.operations';
import { userOperations } from '../features/users/users.operations';
import { webhookOperations } from '../features/webhooks/webhooks.operations';
import { testerAccessOperations } from '../features/testers/tester-access.operations';
import { testerGroupOperations } from '../features/testers/tester-groups.operations';
import { testerPageOperations } from '../features/testers/tester-pages.operations';
import { deviceOperations } from '../features/devices/device.operations';
import { devicePageOperations } from '../features/devices/device-pages.operations';
import type { AnyOperation } from './declare';

/**
 * Every operation declared in a feature folder (features/): mounted as routes by app.ts, described
 * by the OpenAPI document, its scopes in auth/route-scopes.ts. The operations not here yet are
 * still written three times (routes/, openapi/openapi.ts, auth/route-scopes.ts).
 */
export const DECLARED_OPERATIONS: readonly AnyOperation[] = [
  ...sessionOperations,
  ...userOperations,
  ...tokenOperations,
  ...auditOperations,
  ...appOperations,
  ...releaseRecordOperations,
  ...debugFileOperations,
  ...schemeOperations,
  ...channelOperations,
  ...collaboratorOperations,
  ...webhookOperations,
  ...testerGroupOperations,
  ...testerAccessOperations,
  ...testerPageOperations,
  ...deviceOperations,
  ...devicePageOperations,
];
