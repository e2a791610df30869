import { appOperations } from '../features/apps/apps.operations';
import { auditOperations } from '../features/audit/audit.operations';
import { channelOperations } from '../features/channels/channels.operations';
import { debugFileOperations } from '../features/debug-files/debug-files.operations';
import { debugFileDownloadOperations } from '../features/debug-files/debug-file-downloads.operations';
import { debugFileUploadOperations } from '../features/debug-files/debug-file-uploads.operations';
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
import { systemOperations } from '../features/system/system.operations';
import { teardownOperations } from '../features/releases/teardown.operations';
import { uploadOperations } from '../features/releases/upload.operations';
import { versionQueryOperations } from '../features/releases/version-queries.operations';
import { updateCheckOperations } from '../features/update-checks/update-check.operations';
import { symbolOperations } from '../features/symbols/symbols.operations';
import { resumableUploadOperations } from '../features/uploads/resumable-uploads.operations';
import { singleSignOnOperations } from '../features/sessions/single-sign-on.operations';
import { installFileOperations } from '../features/install/install-files.operations';
import { installPageOperations } from '../features/install/install-pages.operations';
import type { AnyOperation } from './declare';

/** Mounted ahead of every other router (app.ts): what every installed build polls. */
export const FIRST_MOUNTED: readonly AnyOperation[] = updateCheckOperations;

/**
 * Every operation of the HTTP API, each declared once in its feature folder (features/): mounted
 * as routes by app.ts in this order (a literal path before a template it would match, where no
 * `besides` says so), described by the OpenAPI document in this order, its scopes and account
 * rule held by auth/scope-guard.ts.
 */
export const DECLARED_OPERATIONS: readonly AnyOperation[] = [
  ...FIRST_MOUNTED,
  ...systemOperations,
  ...singleSignOnOperations,
  ...sessionOperations,
  ...userOperations,
  ...tokenOperations,
  ...auditOperations,
  ...appOperations,
  ...uploadOperations,
  ...resumableUploadOperations,
  ...versionQueryOperations,
  ...releaseRecordOperations,
  ...installFileOperations,
  ...installPageOperations,
  ...teardownOperations,
  ...debugFileUploadOperations,
  ...debugFileDownloadOperations,
  ...debugFileOperations,
  ...symbolOperations,
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
