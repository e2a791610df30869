import { NotFound } from '@hangar/errors';
import type { EventHandler } from '@hangar/events';
import type { Logger } from '@hangar/logger';
import type { apps } from '@hangar/proto';
import type { ServiceClient } from '@hangar/grpc';
import type { MailTransport } from './mail-transport';
import { testerInvitationMail } from './tester-invitation.mail';

/** The durable of the mailer's consumers. */
export const MAIL_DURABLE = 'mail';

/**
 * tester.invited → an e-mail with a new single-use sign-in link. The link is made when the
 * mail is (the event holds ids only): a retry after a failed send makes another, and the
 * unsent one expires unused. A tester removed before the mail went gets none.
 */
export function testerInvitedConsumer(appsClient: ServiceClient<typeof apps.AppsServiceDefinition>, transport: MailTransport, logger: Logger): EventHandler<'tester.invited'> {
  return {
    durable: MAIL_DURABLE,
    event: 'tester.invited',
    async handle(envelope) {
      let link: apps.TesterSignIn;
      try {
        link = await appsClient.issueTesterSignIn({ testerId: envelope.data.tester_id });
      } catch (err) {
        if (err instanceof NotFound) return 'skipped';
        throw err;
      }
      const signInUrl = `${link.linkBase.replace(/\/+$/, '')}/tester/sign-in?token=${encodeURIComponent(link.secret)}`;
      await transport.send(testerInvitationMail({ email: link.email, appName: link.appName, groupName: link.groupName, signInUrl, expiresAt: new Date(link.expiresAtMs) }));
      logger.info({ testerId: envelope.data.tester_id, appId: envelope.data.app_id }, 'tester invitation sent');
      return 'done';
    },
  };
}
