import { isDuplicateKeyError } from '@hangar/mongo';
import type { MailSendModel } from './mail-send.model';

const keyOf = (releaseId: number, email: string) => `${releaseId}:${email}`;

export class MailSendsRepository {
  constructor(private readonly sends: MailSendModel) {}

  /** True when this address still needs this release's e-mail (never sent; a send that failed or was cut off is sent again). */
  async needsSending(releaseId: number, email: string): Promise<boolean> {
    const found = await this.sends.findOne({ _id: keyOf(releaseId, email) }).lean<{ sentAt?: Date }>();
    if (found) return !found.sentAt;
    try {
      await this.sends.create({ _id: keyOf(releaseId, email), releaseId });
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
    return true;
  }

  async markSent(releaseId: number, email: string): Promise<void> {
    await this.sends.updateOne({ _id: keyOf(releaseId, email) }, { $set: { sentAt: new Date() } });
  }
}
