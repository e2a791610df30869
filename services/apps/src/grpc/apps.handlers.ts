import { apps } from '@hangar/proto';
import type { ChannelDocument } from '../data/channel.model';
import type { AppDocument } from '../data/app.model';
import type { SchemeDocument } from '../data/scheme.model';
import type { AttemptDocument } from '../data/webhook-delivery.model';
import type { WebhookDocument } from '../data/webhook.model';
import { requireActor } from '../domain/actor';
import type { AppsDeps } from '../domain/apps-deps';
import { checkPermission, resolveChannel, verifyChannelPassword } from '../domain/channel-lookup';
import { createApp, deleteApp, getApp, listApps, renameApp } from '../domain/manage-apps';
import { createChannel, deleteChannel, getChannel, listChannels, setChannelPassword, updateChannel } from '../domain/manage-channels';
import { addCollaborator, getCollaborator, listCollaborators, removeCollaborator, updateCollaborator } from '../domain/manage-collaborators';
import { createScheme, deleteScheme, getScheme, listSchemes, updateScheme } from '../domain/manage-schemes';
import { ensureUploadChannel } from '../domain/upload-channel';
import { createWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks, testWebhook, updateWebhook } from '../domain/manage-webhooks';
import type { AppView, CollaboratorView, SchemeView } from '../domain/views';

/** Thin edge: proto in, use case, proto out. Errors map in the gRPC middleware. */
export function appsHandlers(deps: AppsDeps): apps.AppsServiceImplementation {
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
      await checkPermission(deps, requireActor(req.actor), req.appId, req.role);
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

    async createWebhook(req) {
      const { webhook, secret } = await createWebhook(deps, requireActor(req.actor), req.appId, { url: req.url, secret: req.secret, events: req.events });
      return { webhook: toWebhook(webhook), secret };
    },
    async getWebhook(req) {
      return toWebhook(await getWebhook(deps, requireActor(req.actor), req.id));
    },
    async listWebhooks(req) {
      return { webhooks: (await listWebhooks(deps, requireActor(req.actor), req.appId)).map(toWebhook) };
    },
    async updateWebhook(req) {
      const input = { url: req.url, secret: req.secret, ...(req.updateEvents ? { events: req.events } : {}) };
      return toWebhook(await updateWebhook(deps, requireActor(req.actor), req.id, input));
    },
    async deleteWebhook(req) {
      await deleteWebhook(deps, requireActor(req.actor), req.id);
      return {};
    },
    async listDeliveries(req) {
      const page = Math.max(1, req.page?.page ?? 1);
      const perPage = Math.min(100, Math.max(1, req.page?.perPage || 25));
      const result = await listDeliveries(deps, requireActor(req.actor), req.webhookId, page, perPage);
      return { deliveries: result.attempts.map(toDelivery), total: result.total };
    },
    async testWebhook(req) {
      return toDelivery(await testWebhook(deps, requireActor(req.actor), req.id));
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

function bareScheme(scheme: SchemeDocument): apps.Scheme {
  return {
    id: scheme._id,
    appId: scheme.appId,
    name: scheme.name,
    newBuildCallout: scheme.newBuildCallout,
    retainedBuilds: scheme.retainedBuilds,
    channels: [],
  };
}

function toChannel(channel: ChannelDocument): apps.Channel {
  return {
    id: channel._id,
    schemeId: channel.schemeId,
    name: channel.name,
    slug: channel.slug,
    deviceType: channel.deviceType,
    bundleId: channel.bundleId,
    ...(channel.gitUrl ? { gitUrl: channel.gitUrl } : {}),
    hasPassword: Boolean(channel.passwordHash),
    minSupportedVersion: channel.minSupportedVersion ?? '',
  };
}

/** Never the secret: it leaves the service once, in CreatedWebhook. */
function toWebhook(webhook: WebhookDocument): apps.Webhook {
  return { id: webhook._id, appId: webhook.appId, url: webhook.url, events: webhook.events, createdAtMs: webhook.createdAt.getTime() };
}

function toDelivery(attempt: AttemptDocument): apps.Delivery {
  return {
    id: attempt._id,
    webhookId: attempt.webhookId,
    event: attempt.event,
    eventId: attempt.eventId,
    attempt: attempt.attempt,
    statusCode: attempt.statusCode,
    success: attempt.success,
    error: attempt.finishedAt ? attempt.error : 'in progress',
    durationMs: attempt.durationMs,
    createdAtMs: (attempt.createdAt ?? attempt.startedAt).getTime(),
    deliveryId: attempt.deliveryId,
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
