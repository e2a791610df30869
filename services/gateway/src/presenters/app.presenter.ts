import type { apps } from '@hangar/proto';

/** The seed's Channel shape: never the password, only whether there is one. */
export function presentChannel(channel: apps.Channel) {
  return {
    id: channel.id,
    name: channel.name,
    slug: channel.slug,
    device_type: channel.deviceType,
    bundle_id: channel.bundleId,
    git_url: channel.gitUrl ?? null,
    has_password: channel.hasPassword,
    min_supported_version: channel.minSupportedVersion || null,
  };
}

export function presentScheme(scheme: apps.Scheme) {
  return {
    id: scheme.id,
    name: scheme.name,
    new_build_callout: scheme.newBuildCallout,
    retained_builds: scheme.retainedBuilds,
    channels: scheme.channels.map(presentChannel),
  };
}

/** `id` is the user's id (seed: Collaborator). */
export function presentCollaborator(collaborator: apps.Collaborator) {
  return { id: collaborator.userId, username: collaborator.username, email: collaborator.email, role: collaborator.role };
}

/** The App shape; `collaborators` only where the seed shows it (create, update, get one), not in lists. */
export function presentApp(app: apps.App, { collaborators }: { collaborators: boolean }) {
  return {
    id: app.id,
    name: app.name,
    schemes: app.schemes.map(presentScheme),
    ...(collaborators ? { collaborators: app.collaborators.map(presentCollaborator) } : {}),
  };
}
