import type { AppDocument } from '../data/app.model';
import type { ChannelBranch } from '../data/app-tree.model';
import type { ChannelDocument } from '../data/channel.model';
import type { SchemeDocument } from '../data/scheme.model';
import type { AppsDeps } from './deps';

/** What use cases answer: documents with their children, ready for the gRPC edge. */
export interface SchemeView {
  /** The fields answered: a scheme document, or its branch of an app's tree (the apps list). */
  scheme: Pick<SchemeDocument, '_id' | 'appId' | 'name' | 'newBuildCallout' | 'retainedBuilds'>;
  channels: (ChannelDocument | ChannelBranch)[];
}

export interface CollaboratorView {
  userId: number;
  username: string;
  email: string;
  role: string;
}

export interface AppView {
  /** The fields answered: an app document, or an app's tree (the apps list). */
  app: Pick<AppDocument, '_id' | 'name' | 'createdAt'>;
  schemes: SchemeView[];
  /** Undefined where the shape has none (the app list). */
  collaborators?: CollaboratorView[];
}

/** Schemes with their channels for many apps in two queries. */
export async function schemeTrees(deps: AppsDeps, appIds: number[]): Promise<Map<number, SchemeView[]>> {
  const schemes = appIds.length ? await deps.schemes.listByApps(appIds) : [];
  const channels = schemes.length ? await deps.channels.listBySchemes(schemes.map((s) => s._id)) : [];
  const bySchemeId = new Map<number, ChannelDocument[]>();
  for (const c of channels) bySchemeId.set(c.schemeId, [...(bySchemeId.get(c.schemeId) ?? []), c]);
  const byApp = new Map<number, SchemeView[]>(appIds.map((id) => [id, []]));
  for (const s of schemes) byApp.get(s.appId)?.push({ scheme: s, channels: bySchemeId.get(s._id) ?? [] });
  return byApp;
}

export async function schemeView(deps: AppsDeps, scheme: SchemeDocument): Promise<SchemeView> {
  return { scheme, channels: await deps.channels.listBySchemes([scheme._id]) };
}

/** Collaborators with their user's name and email; users that no longer exist are left out. */
export async function collaboratorViews(deps: AppsDeps, appId: number): Promise<CollaboratorView[]> {
  const rows = await deps.collaborators.listByApp(appId);
  const users = rows.length ? await deps.users.lookup(rows.map((r) => r.userId)) : new Map();
  return rows.flatMap((r) => {
    const user = users.get(r.userId);
    return user ? [{ userId: r.userId, username: user.username, email: user.email, role: r.role }] : [];
  });
}

export async function fullAppView(deps: AppsDeps, app: AppDocument): Promise<AppView> {
  const [trees, collaborators] = await Promise.all([schemeTrees(deps, [app._id]), collaboratorViews(deps, app._id)]);
  return { app, schemes: trees.get(app._id) ?? [], collaborators };
}
