import { apps } from '@hangar/proto';
import type { ChannelDocument } from '../data/channel.model';
import type { AppDocument } from '../data/app.model';
import type { ChannelBranch } from '../data/app-tree.model';
import type { SchemeDocument } from '../data/scheme.model';
import { LEGACY_WEBHOOK_COUNTERS, LegacyAttemptDoc, LegacyDeliveryDoc, LegacyWebhookDoc, LegacyWebhooksRepository } from '../data/legacy-webhooks.repository';
import { requireActor } from '../domain/actor';
import type { AppsDeps } from '../domain/deps';
import { checkPermission, describeApp, resolveChannel, verifyChannelPassword } from '../domain/channel-lookup';
import { createApp, deleteApp, getApp, listApps, renameApp } from '../domain/manage-apps';
import { createChannel, deleteChannel, getChannel, listChannels, setChannelPassword, updateChannel } from '../domain/manage-channels';
import { addCollaborator, getCollaborator, listCollaborators, removeCollaborator, updateCollaborator } from '../domain/manage-collaborators';
import { createScheme, deleteScheme, getScheme, listSchemes, updateScheme } from '../domain/manage-schemes';
import { ensureUploadChannel } from '../domain/upload-channel';
import { testerHandlers } from './tester.handlers';
import type { AppView, CollaboratorView, SchemeView } from '../domain/views';

/** Thin edge: proto in, use case, proto out. Errors map in the gRPC middleware. */
export function appsHandlers(deps: AppsDeps, legacy: LegacyWebhooksRepository): apps.AppsServiceImplementation {
  return {
    async createApp(req) {
      return toApp(await createApp(deps, requireActor(req.actor), req.name));
    },
    async getApp(req) {
      return toApp(await getApp(deps, requireActor(req.actor), req.id));
    },
    async listApps(req) {
      const page = Math.max(1, req.page?.page ?? 1);
      const perPage = Math.min(100, Math.max(1, req.page?.perPage || 25));
      const result = await listApps(deps, requireActor(req.actor), page, perPage);
      return { apps: result.apps.map(toApp), total: result.total };
    },
    async updateApp(req) {
      return toApp(await renameApp(deps, requireActor(req.actor), req.id, req.name));
    },
    async deleteApp(req) {
      await deleteApp(deps, requireActor(req.actor), req.id);
      return {};
    },

    async createScheme(req) {
      return toScheme(await createScheme(deps, requireActor(req.actor), req.appId, schemeInput(req)));
    },
    async getScheme(req) {
      return toScheme(await getScheme(deps, requireActor(req.actor), req.id));
    },
    async listSchemes(req) {
      return { schemes: (await listSchemes(deps, requireActor(req.actor), req.appId)).map(toScheme) };
    },
    async updateScheme(req) {
      return toScheme(await updateScheme(deps, requireActor(req.actor), req.id, schemeInput(req)));
    },
    async deleteScheme(req) {
      await deleteScheme(deps, requireActor(req.actor), req.id);
      return {};
    },

    async createChannel(req) {
      const { actor, schemeId, ...input } = req;
      return toChannel(await createChannel(deps, requireActor(actor), schemeId, input));
    },
    async getChannel(req) {
      return toChannel(await getChannel(deps, requireActor(req.actor), req.id));
    },
    async listChannels(req) {
      return { channels: (await listChannels(deps, requireActor(req.actor), req.schemeId)).map(toChannel) };
    },
    async updateChannel(req) {
      const { actor, id, ...input } = req;
      return toChannel(await updateChannel(deps, requireActor(actor), id, input));
    },
    async deleteChannel(req) {
      await deleteChannel(deps, requireActor(req.actor), req.id);
      return {};
    },

    async listCollaborators(req) {
      return { collaborators: (await listCollaborators(deps, requireActor(req.actor), req.appId)).map(toCollaborator) };
    },
    async getCollaborator(req) {
      return toCollaborator(await getCollaborator(deps, requireActor(req.actor), req.appId, req.userId));
    },
    async addCollaborator(req) {
      return toCollaborator(await addCollaborator(deps, requireActor(req.actor), req.appId, req.userId, req.role));
    },
    async updateCollaborator(req) {
      return toCollaborator(await updateCollaborator(deps, requireActor(req.actor), req.appId, req.userId, req.role));
    },
    async removeCollaborator(req) {
      await removeCollaborator(deps, requireActor(req.actor), req.appId, req.userId);
      return {};
    },

    async resolveChannel(req) {
      return toContext(await resolveChannel(deps, req.channelKey, req.channelId));
    },
    async checkPermission(req) {
      await checkPermission(deps, requireActor(req.actor), req.appId, { action: req.action, role: req.role ?? '' });
      return {};
    },
    async ensureUploadChannel(req) {
      return toContext(await ensureUploadChannel(deps, requireActor(req.actor), req.appName, req.deviceType, req.bundleId));
    },
    async setChannelPassword(req) {
      await setChannelPassword(deps, requireActor(req.actor), req.channelId, req.password);
      return {};
    },
    async verifyChannelPassword(req) {
      return { ok: await verifyChannelPassword(deps, req.channelKey, req.password) };
    },

    ...testerHandlers(deps),

    async describeApp(req) {
      const app = await describeApp(deps, req.id);
      return { id: app._id, name: app.name, schemes: [], collaborators: [], createdAtMs: app.createdAt.getTime() };
    },
    async *exportLegacyWebhooks() {
      for await (const doc of legacy.webhooks()) yield { webhook: toLegacyWebhook(doc) };
      for await (const doc of legacy.deliveries()) yield { delivery: toLegacyDelivery(doc) };
      for await (const doc of legacy.attempts()) yield { attempt: toLegacyAttempt(doc) };
      for (const name of LEGACY_WEBHOOK_COUNTERS) yield { counter: { name, seq: await legacy.counter(name) } };
    },
    async dropLegacyWebhooks() {
      await legacy.drop();
      return {};
    },
  };
}

function schemeInput(req: apps.CreateSchemeRequest | apps.UpdateSchemeRequest) {
  return {
    name: req.name,
    newBuildCallout: req.newBuildCallout,
    newBuildCalloutText: req.newBuildCalloutText,
    retainedBuilds: req.retainedBuilds,
    retainedBuildsText: req.retainedBuildsText,
  };
}

function toApp(view: AppView): apps.App {
  return {
    id: view.app._id,
    name: view.app.name,
    schemes: view.schemes.map(toScheme),
    collaborators: (view.collaborators ?? []).map(toCollaborator),
    createdAtMs: view.app.createdAt.getTime(),
  };
}

function toScheme(view: SchemeView): apps.Scheme {
  return { ...bareScheme(view.scheme), channels: view.channels.map(toChannel) };
}

function bareScheme(scheme: SchemeView['scheme']): apps.Scheme {
  return {
    id: scheme._id,
    appId: scheme.appId,
    name: scheme.name,
    newBuildCallout: scheme.newBuildCallout,
    retainedBuilds: scheme.retainedBuilds,
    channels: [],
  };
}

function toChannel(channel: ChannelDocument | ChannelBranch): apps.Channel {
  return {
    id: channel._id,
    schemeId: channel.schemeId,
    name: channel.name,
    slug: channel.slug,
    deviceType: channel.deviceType,
    bundleId: channel.bundleId,
    ...(channel.gitUrl ? { gitUrl: channel.gitUrl } : {}),
    // A tree's branch says whether there is a password; the hash never leaves the channels collection.
    hasPassword: 'hasPassword' in channel ? channel.hasPassword : Boolean(channel.passwordHash),
    minSupportedVersion: channel.minSupportedVersion ?? '',
  };
}

const ms = (date: Date | undefined) => date?.getTime() ?? 0;

/** Legacy records leave as they were stored: the secret still sealed, to be opened only under the same key. */
function toLegacyWebhook(doc: LegacyWebhookDoc): apps.LegacyWebhook {
  return { id: doc._id, appId: doc.appId, url: doc.url, secretEnc: doc.secretEnc, events: doc.events ?? [], createdAtMs: ms(doc.createdAt), updatedAtMs: ms(doc.updatedAt) };
}

function toLegacyDelivery(doc: LegacyDeliveryDoc): apps.LegacyDelivery {
  return {
    id: doc._id, webhookId: doc.webhookId, appId: doc.appId, event: doc.event, eventId: doc.eventId, payloadJson: doc.payloadJson, url: doc.url,
    secretEnc: doc.secretEnc, state: doc.state, maxAttempts: doc.maxAttempts, nextAttemptAtMs: ms(doc.nextAttemptAt), traceparent: doc.traceparent ?? '',
    createdAtMs: ms(doc.createdAt), updatedAtMs: ms(doc.updatedAt),
  };
}

function toLegacyAttempt(doc: LegacyAttemptDoc): apps.LegacyAttempt {
  return {
    id: doc._id, deliveryId: doc.deliveryId, webhookId: doc.webhookId, appId: doc.appId, event: doc.event, eventId: doc.eventId, attempt: doc.attempt,
    statusCode: doc.statusCode ?? 0, success: doc.success ?? false, error: doc.error ?? '', durationMs: doc.durationMs ?? 0, startedAtMs: ms(doc.startedAt),
    ...(doc.finishedAt ? { finishedAtMs: ms(doc.finishedAt) } : {}), createdAtMs: ms(doc.createdAt ?? doc.startedAt),
  };
}

function toCollaborator(view: CollaboratorView): apps.Collaborator {
  return { userId: view.userId, username: view.username, email: view.email, role: view.role };
}

/** The app and scheme come bare (no children): callers need their ids and names. */
function toContext(ctx: { app: AppDocument; scheme: SchemeDocument; channel: ChannelDocument }): apps.ChannelContext {
  return {
    app: { id: ctx.app._id, name: ctx.app.name, schemes: [], collaborators: [], createdAtMs: ctx.app.createdAt.getTime() },
    scheme: bareScheme(ctx.scheme),
    channel: toChannel(ctx.channel),
  };
}
