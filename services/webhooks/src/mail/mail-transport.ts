import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { Logger } from '@hangar/logger';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Inline images, referred to as `cid:<cid>` in the HTML (the QR code). */
  images?: { cid: string; filename: string; content: Buffer }[];
  headers?: Record<string, string>;
}

export interface MailTransport {
  /** Where mail goes, for the start's log line: `smtp://host:port`, a folder, or nowhere. */
  readonly description: string;
  /** Resolves once the message is handed over; throws when it was not (the consumer retries). */
  send(message: MailMessage): Promise<void>;
}

export interface MailSettings {
  SMTP_URL?: string;
  /** Connections kept open to the SMTP server (the e-mails sent at once). */
  MAIL_CONCURRENCY?: number;
  MAIL_FROM: string;
  MAILBOX_DIR?: string;
}

/**
 * Mail goes to the SMTP server of `SMTP_URL` (nodemailer: `smtp://user:pass@host:587`,
 * `smtps://…` for TLS from the start); without one, to `.eml` files in `MAILBOX_DIR`
 * (what `npm run up` sets up: read them with any mail client); with neither, nowhere — a
 * warning names the recipient, never the message (it holds a sign-in link).
 */
export function mailTransportFrom(settings: MailSettings, logger: Logger): MailTransport {
  if (settings.SMTP_URL) {
    // Pooled: a few connections kept open and reused; a connection per e-mail (nodemailer's
    // default) spent most of each send on the handshake (8 invitations a second in the bench).
    const transporter = nodemailer.createTransport({ url: settings.SMTP_URL, pool: true, maxConnections: settings.MAIL_CONCURRENCY ?? 5 } as SMTPTransport.Options & { url: string; pool: true });
    const url = new URL(settings.SMTP_URL);
    return {
      description: `${url.protocol}//${url.host}`,
      async send(message) {
        await transporter.sendMail(mailOptions(settings.MAIL_FROM, message));
      },
    };
  }
  if (settings.MAILBOX_DIR) {
    const dir = settings.MAILBOX_DIR;
    const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    return {
      description: `the folder ${dir}`,
      async send(message) {
        const info = await transporter.sendMail(mailOptions(settings.MAIL_FROM, message));
        await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
        // A random part: two e-mails to one address in the same millisecond (an invitation and a build's) keep both.
        const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}-${message.to.replace(/[^A-Za-z0-9@._-]/g, '_')}.eml`;
        // 0600: a message holds a sign-in link.
        await fs.promises.writeFile(path.join(dir, name), info.message as Buffer, { mode: 0o600 });
      },
    };
  }
  return {
    description: 'nowhere (set SMTP_URL or MAILBOX_DIR)',
    async send(message) {
      logger.warn({ to: message.to, subject: message.subject }, 'e-mail not sent: neither SMTP_URL nor MAILBOX_DIR is set');
    },
  };
}

function mailOptions(from: string, message: MailMessage): SendMailOptions {
  return {
    from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    ...(message.headers ? { headers: message.headers } : {}),
    attachments: (message.images ?? []).map((image) => ({ cid: image.cid, filename: image.filename, content: image.content, contentType: 'image/png' })),
  };
}
