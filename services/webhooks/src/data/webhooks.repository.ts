import type { Connection } from 'mongoose';
import { nextSequence } from '@hangar/mongo';
import type { WebhookDocument, WebhookModel } from './webhook.model';

export class WebhooksRepository {
  constructor(
    private readonly connection: Connection,
    private readonly webhooks: WebhookModel,
  ) {}

  /** The id comes first so the secret can be encrypted bound to it. */
  nextId(): Promise<number> {
    return nextSequence(this.connection, 'webhooks');
  }

  async create(webhook: Omit<WebhookDocument, 'createdAt' | 'updatedAt'>): Promise<WebhookDocument> {
    return (await this.webhooks.create(webhook)).toObject();
  }

  findById(id: number): Promise<WebhookDocument | null> {
    return this.webhooks.findOne({ _id: id }).lean<WebhookDocument>();
  }

  listByApp(appId: number): Promise<WebhookDocument[]> {
    return this.webhooks.find({ appId }).sort({ _id: 1 }).lean<WebhookDocument[]>();
  }

  countByApp(appId: number): Promise<number> {
    return this.webhooks.countDocuments({ appId });
  }

  update(id: number, changes: Partial<Pick<WebhookDocument, 'url' | 'secretEnc' | 'events' | 'format'>>): Promise<WebhookDocument | null> {
    return this.webhooks.findOneAndUpdate({ _id: id }, { $set: changes }, { new: true }).lean<WebhookDocument>();
  }

  async remove(id: number): Promise<boolean> {
    return (await this.webhooks.deleteOne({ _id: id })).deletedCount === 1;
  }

  async removeAllOfApp(appId: number): Promise<number> {
    return (await this.webhooks.deleteMany({ appId })).deletedCount;
  }
}
