import { NotFound } from '@hangar/errors';
import { createEnvelope } from '@hangar/events';
import { appFor, schemeFor } from './access';
import { refreshAppTree } from './app-trees';
import type { AppsDeps } from './deps';
import { forgetChannel } from './manage-tester-groups';
import { SchemeInput, validateSchemeFields } from './fields';
import type { Actor } from './permissions';
import { SchemeView, schemeTrees, schemeView } from './views';

export async function createScheme(deps: AppsDeps, actor: Actor, appId: number, input: SchemeInput): Promise<SchemeView> {
  await appFor(deps, actor, appId, 'schemes.manage');
  const fields = validateSchemeFields(input, 'create');
  const scheme = await deps.schemes.create({
    appId,
    name: fields.name!,
    newBuildCallout: fields.newBuildCallout!,
    retainedBuilds: fields.retainedBuilds!,
  });
  await refreshAppTree(deps, appId);
  return { scheme, channels: [] };
}

export async function listSchemes(deps: AppsDeps, actor: Actor, appId: number): Promise<SchemeView[]> {
  await appFor(deps, actor, appId, 'app.read');
  return (await schemeTrees(deps, [appId])).get(appId) ?? [];
}

export async function getScheme(deps: AppsDeps, actor: Actor, id: number): Promise<SchemeView> {
  const { scheme } = await schemeFor(deps, actor, id, 'app.read');
  return schemeView(deps, scheme);
}

export async function updateScheme(deps: AppsDeps, actor: Actor, id: number, input: SchemeInput): Promise<SchemeView> {
  await schemeFor(deps, actor, id, 'schemes.manage');
  const fields = validateSchemeFields(input, 'update');
  const scheme = await deps.schemes.update(id, fields);
  if (!scheme) throw new NotFound(`Scheme ${id} not found`);
  await refreshAppTree(deps, scheme.appId);
  return schemeView(deps, scheme);
}

/** Tombstone + scheme.deleted in one write; its channels go after. */
export async function deleteScheme(deps: AppsDeps, actor: Actor, id: number): Promise<void> {
  const { app } = await schemeFor(deps, actor, id, 'schemes.manage');
  const deleted = await deps.schemes.markDeleted(id, createEnvelope('scheme.deleted', { app_id: app._id, scheme_id: id }, 'apps'));
  if (!deleted) throw new NotFound(`Scheme ${id} not found`);
  deps.onEventsRecorded();
  const channels = await deps.channels.listBySchemes([id]);
  await deps.channels.deleteByScheme(id);
  for (const channel of channels) await forgetChannel(deps, app._id, channel._id);
  await refreshAppTree(deps, app._id);
}
