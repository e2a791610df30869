import { PermissionDenied } from '@hangar/errors';
import type { AppAction } from '@hangar/proto';

/**
 * PRODUCT §2 in one place: who may do what on an app. Every use case asks
 * here; nothing else compares roles.
 */

export const COLLABORATOR_ROLES = ['member', 'developer', 'admin'] as const;
export type CollaboratorRole = (typeof COLLABORATOR_ROLES)[number];

export interface Actor {
  userId: number;
  /** Global role: admin | developer | member. */
  role: string;
  /** Apps the caller's token is limited to; empty: every app (scoped tokens). */
  appIds: number[];
}

/**
 * A token limited to some apps reaches nothing else, whatever its user's
 * roles: checked before any role, for global admins too.
 */
export function requireTokenReaches(actor: Actor, appId: number): void {
  if (actor.appIds.length > 0 && !actor.appIds.includes(appId)) throw new PermissionDenied('This access token is limited to other apps');
}

/** The apps a caller may list: theirs, narrowed to the token's apps. */
export function withinTokenApps(actor: Actor, appIds: number[] | undefined): number[] | undefined {
  if (actor.appIds.length === 0) return appIds;
  return (appIds ?? actor.appIds).filter((id) => actor.appIds.includes(id));
}

const RANK: Record<CollaboratorRole, number> = { member: 1, developer: 2, admin: 3 };

/**
 * The least collaborator role each action on an app needs: the actions the apps service checks
 * itself, and those other services ask for by name through CheckPermission (one list,
 * libs/proto app-actions.ts).
 */
export const REQUIRED_ROLE = {
  'app.read': 'member',
  'app.rename': 'admin',
  'app.delete': 'admin',
  'collaborators.read': 'member',
  'collaborators.manage': 'admin',
  'schemes.manage': 'developer',
  'channels.manage': 'developer',
  'releases.read': 'member',
  'releases.upload': 'developer',
  'releases.edit': 'developer',
  'debug_files.read': 'member',
  'debug_files.manage': 'developer',
  'webhooks.manage': 'admin',
  // An app's part of the audit log (services/gateway audit.routes.ts).
  'audit.read': 'admin',
  // Tester groups hold people's addresses and open channels without their password.
  'testers.manage': 'admin',
} as const satisfies Record<AppAction, CollaboratorRole>;

export type { AppAction };

export function isCollaboratorRole(value: string): value is CollaboratorRole {
  return (COLLABORATOR_ROLES as readonly string[]).includes(value);
}

export const isGlobalAdmin = (actor: Actor): boolean => actor.role === 'admin';

/** Global admins and developers may create apps; members may not. */
export function canCreateApp(actor: Actor): boolean {
  return actor.role === 'admin' || actor.role === 'developer';
}

/**
 * Global admin: everything. Anyone else: what their collaborator role on the
 * app allows (`membership` undefined when they are not a collaborator).
 */
export function hasAppRole(actor: Actor, membership: string | undefined, least: CollaboratorRole): boolean {
  if (isGlobalAdmin(actor)) return true;
  if (!membership || !isCollaboratorRole(membership)) return false;
  return RANK[membership] >= RANK[least];
}

export function can(actor: Actor, membership: string | undefined, action: AppAction): boolean {
  return hasAppRole(actor, membership, REQUIRED_ROLE[action]);
}

export function requireCan(actor: Actor, membership: string | undefined, action: AppAction): void {
  if (!can(actor, membership, action)) throw new PermissionDenied(`You are not allowed to do this on the app (${action.replace('.', ' ')})`);
}

export function requireCanCreateApp(actor: Actor): void {
  if (!canCreateApp(actor)) throw new PermissionDenied('Members cannot create apps');
  if (actor.appIds.length > 0) throw new PermissionDenied('This access token is limited to existing apps: it cannot create one');
}
