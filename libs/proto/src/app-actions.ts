/**
 * What a service may ask the apps service to allow on an app (CheckPermission's
 * `action`). Callers name what they do; which collaborator role that needs is
 * decided in one place, services/apps/src/domain/permissions.ts (PRODUCT §2), so no
 * other service compares roles.
 */
export const APP_ACTIONS = [
  'app.read',
  'app.rename',
  'app.delete',
  'collaborators.read',
  'collaborators.manage',
  'schemes.manage',
  'channels.manage',
  'releases.read',
  'releases.upload',
  'releases.edit',
  'debug_files.read',
  'debug_files.manage',
  'webhooks.manage',
  'audit.read',
  'testers.manage',
] as const;

export type AppAction = (typeof APP_ACTIONS)[number];

export function isAppAction(value: string): value is AppAction {
  return (APP_ACTIONS as readonly string[]).includes(value);
}
