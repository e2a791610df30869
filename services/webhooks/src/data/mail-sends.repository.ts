import { insertNew } from '@hangar/mongo';
import type { MailSendDocument, MailSendModel } from './mail-send.model';

const keyOf = (releaseId: number, email: string) => `${releaseId}:${email}`;

export class MailSendsRepository {
  constructor(private readonly sends: MailSendModel) {}

  /** The addresses this release's e-mail went to already (a redelivered event skips them). */
  async sentTo(releaseId: number): Promise<Set<string>> {
    const sent = await this.sends.find({ releaseId }, { _id: 1, sentAt: 1 }).lean<Pick<MailSendDocument, '_id' | 'sentAt'>[]>();
    const prefix = `${releaseId}:`;
    return new Set(sent.filter((s) => s.sentAt).map((s) => s._id.slice(prefix.length)));
  }

  /** Records sends SMTP took (one unordered insert); one recorded already stays as it is. */
  async recordSent(releaseId: number, emails: readonly string[], at = new Date()): Promise<void> {
    await insertNew(this.sends, emails.map((email) => ({ _id: keyOf(releaseId, email), releaseId, sentAt: at, createdAt: at })));
  }
}
