import { escapeHtml } from './html';
import type { MailMessage } from './mail-transport';

export interface SignInLinkFacts {
  email: string;
  appName: string;
  groupName: string;
  /** The whole sign-in URL, secret included. */
  signInUrl: string;
  expiresAt: Date;
}


/** The e-mail that carries a tester's single-use sign-in link: a plain-text part and an HTML part with a button. */
export function testerInvitationMail(facts: SignInLinkFacts): MailMessage {
  const expires = facts.expiresAt.toUTCString();
  const subject = `You are invited to test ${facts.appName}`;
  const text = [
    `You are a tester of ${facts.appName} (group: ${facts.groupName}).`,
    '',
    'Open this link to see its builds and install them — no password needed:',
    facts.signInUrl,
    '',
    `The link works once, until ${expires}. Afterwards, ask for a new one on the sign-in page with this address.`,
    'If you did not expect this e-mail, ignore it: nothing happens until the link is opened.',
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family: system-ui, sans-serif; color: #1d2430; max-width: 560px">
<h1 style="font-size: 20px">Test ${escapeHtml(facts.appName)}</h1>
<p>You are a tester of <strong>${escapeHtml(facts.appName)}</strong> (group: ${escapeHtml(facts.groupName)}).</p>
<p><a href="${escapeHtml(facts.signInUrl)}" style="display: inline-block; padding: 10px 18px; background: #2457c5; color: #fff; border-radius: 6px; text-decoration: none">See the builds</a></p>
<p style="font-size: 13px; color: #5b6575">The link works once, until ${escapeHtml(expires)}. If you did not expect this e-mail, ignore it.</p>
</body></html>`;
  return { to: facts.email, subject, text, html };
}
