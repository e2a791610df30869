import { escapeHtml } from './html';
import type { MailMessage } from './mail-transport';

export interface NewBuildFacts {
  email: string;
  appName: string;
  channelName: string;
  releaseVersion: string;
  buildVersion: string;
  /** Each line of the release notes (the changelog's messages). */
  notes: string[];
  /** The Install button: the build's page, or on a protected channel a sign-in link that lands there. */
  installUrl: string;
  /** The build's install page itself: the QR code holds it. */
  pageUrl: string;
  unsubscribeUrl: string;
  /** PNG of the install page's QR code. */
  qrCode: Buffer;
}

const QR_CID = 'install-qr@hangar';

/** A new build on a tester's channel: release notes, the install button, the QR code to scan with a phone, and how to stop these e-mails. */
export function newBuildMail(facts: NewBuildFacts): MailMessage & { headers: Record<string, string> } {
  const version = `${facts.releaseVersion} (${facts.buildVersion})`;
  const subject = `New build of ${facts.appName}: ${version}`;
  const text = [
    `${facts.appName} ${version} is out on ${facts.channelName}.`,
    '',
    ...(facts.notes.length ? ["What's new:", ...facts.notes.map((n) => `- ${n}`), ''] : []),
    `Install it: ${facts.installUrl}`,
    `Its page (and QR code): ${facts.pageUrl}`,
    '',
    `No more of these e-mails: ${facts.unsubscribeUrl}`,
  ].join('\n');
  const notes = facts.notes.length ? `<h2 style="font-size: 16px">What's new</h2><ul>${facts.notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>` : '';
  const html = `<!doctype html><html><body style="font-family: system-ui, sans-serif; color: #1d2430; max-width: 560px">
<h1 style="font-size: 20px">${escapeHtml(facts.appName)} ${escapeHtml(version)}</h1>
<p>A new build is out on ${escapeHtml(facts.channelName)}.</p>
${notes}
<p><a href="${escapeHtml(facts.installUrl)}" style="display: inline-block; padding: 10px 18px; background: #2457c5; color: #fff; border-radius: 6px; text-decoration: none">Install</a></p>
<p><img src="cid:${QR_CID}" alt="QR code of the install page: scan it with your phone" width="160" height="160"></p>
<p style="font-size: 13px; color: #5b6575"><a href="${escapeHtml(facts.unsubscribeUrl)}">No more of these e-mails</a></p>
</body></html>`;
  return {
    to: facts.email,
    subject,
    text,
    html,
    images: [{ cid: QR_CID, filename: 'install-qr.png', content: facts.qrCode }],
    // Mail clients show their own unsubscribe button for it (RFC 2369), which POSTs to the link (RFC 8058); a browser opening it is asked to confirm.
    headers: { 'List-Unsubscribe': `<${facts.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
