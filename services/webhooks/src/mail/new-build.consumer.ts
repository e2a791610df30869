import { NotFound } from '@hangar/errors';
import type { EventHandler } from '@hangar/events';
import type { ServiceClient } from '@hangar/grpc';
import type { Logger } from '@hangar/logger';
import type { apps } from '@hangar/proto';
import QRCode from 'qrcode';
import type { MailSendsRepository } from '../data/mail-sends.repository';
import type { ReleaseSource } from '../domain/deps';
import type { MailTransport } from './mail-transport';
import { newBuildMail } from './new-build.mail';
import { MAIL_DURABLE } from './tester-invited.consumer';

export interface NewBuildMailDeps {
  apps: ServiceClient<typeof apps.AppsServiceDefinition>;
  releases: ReleaseSource;
  sends: MailSendsRepository;
  transport: MailTransport;
  logger: Logger;
  /** PUBLIC_BASE_URL; else each tester's links start where they were invited from. */
  publicBaseUrl?: string;
  /** E-mails handed to SMTP at once. */
  concurrency: number;
}

const base = (url: string) => url.replace(/\/+$/, '');

/**
 * release.created → an e-mail to each tester of the groups that open the build's channel: release
 * notes, an install button, the install page's QR code, an unsubscribe link. Nothing when the
 * upload said `notify=false` or the scheme's new-build callout is off. A failed send fails the
 * event after the others went: its redelivery sends only what is still unsent (mail_sends).
 */
export function newBuildMailConsumer(deps: NewBuildMailDeps): EventHandler<'release.created'> {
  return {
    durable: MAIL_DURABLE,
    event: 'release.created',
    async handle(envelope) {
      const { release_id: releaseId, channel_id: channelId } = envelope.data;
      if (envelope.data.notify === false) return 'skipped';
      // A channel gone is nothing to tell; the apps service away fails the event, so it comes back.
      const context = await deps.apps.resolveChannel({ channelKey: '', channelId }).catch((err: unknown) => {
        if (err instanceof NotFound) return undefined;
        throw err;
      });
      if (!context?.scheme?.newBuildCallout || !context.channel) return 'skipped';
      const { testers } = await deps.apps.listChannelTesters({ channelId });
      const release = testers.length > 0 ? await deps.releases.release(releaseId) : undefined;
      if (!release) return 'skipped';
      const notes = release.changelog.map((entry) => entry.message.trim()).filter(Boolean);
      const qrCodes = new Map<string, Promise<Buffer>>();
      const qrCodeOf = (url: string) => qrCodes.get(url) ?? qrCodes.set(url, QRCode.toBuffer(url, { type: 'png', width: 320, margin: 2, errorCorrectionLevel: 'M' })).get(url)!;
      const failures: unknown[] = [];
      const alreadySent = await deps.sends.sentTo(releaseId);

      const sendTo = async (tester: apps.ChannelTester) => {
        const origin = base(deps.publicBaseUrl ?? tester.linkBase);
        const installPageUrl = `${origin}/releases/${releaseId}`;
        // A protected channel's page asks a browser without the tester's cookie for the password:
        // the button signs them in first (a single-use link, like the invitation's).
        const button = context.channel!.hasPassword ? await signInThen(deps, tester.testerId, origin, `/releases/${releaseId}`) : installPageUrl;
        const mail = newBuildMail({
          email: tester.email,
          appName: context.app!.name,
          channelName: context.channel!.name,
          releaseVersion: release.releaseVersion,
          buildVersion: release.buildVersion,
          notes,
          installUrl: button,
          pageUrl: installPageUrl,
          unsubscribeUrl: `${origin}/tester/unsubscribe?tester=${tester.testerId}&key=${encodeURIComponent(tester.unsubscribeKey)}`,
          qrCode: await qrCodeOf(installPageUrl),
        });
        await deps.transport.send(mail);
      };

      const unsent = testers.filter((t) => !alreadySent.has(t.email));
      for (let i = 0; i < unsent.length; i += deps.concurrency) {
        const batch = unsent.slice(i, i + deps.concurrency);
        const results = await Promise.allSettled(batch.map(sendTo));
        // What SMTP took is recorded before anything is retried: a redelivery sends only the rest.
        await deps.sends.recordSent(releaseId, batch.filter((_, j) => results[j]!.status === 'fulfilled').map((t) => t.email));
        for (const r of results) if (r.status === 'rejected') failures.push(r.reason);
      }
      if (failures.length > 0) throw new AggregateError(failures, `${failures.length} of ${testers.length} new-build e-mails of release ${releaseId} were not sent`);
      deps.logger.info({ releaseId, recipients: testers.length }, 'new-build e-mails sent');
      return 'done';
    },
  };
}

async function signInThen(deps: NewBuildMailDeps, testerId: number, origin: string, next: string): Promise<string> {
  const link = await deps.apps.issueTesterSignIn({ testerId });
  return `${origin}/tester/sign-in?token=${encodeURIComponent(link.secret)}&next=${encodeURIComponent(next)}`;
}
