import type { Connection } from 'mongoose';
import { nextSequence } from '@hangar/mongo';
import { SessionDocument, SessionModel } from './session.model';

/** Like tokens: last-used is written at most once a minute, so reads stay reads. */
const LAST_USED_RESOLUTION_MS = 60_000;

export class SessionsRepository {
  constructor(
    private readonly connection: Connection,
    private readonly sessions: SessionModel,
  ) {}

  async create(userId: number, secretHash: string, userAgent: string, expiresAt: Date, now = new Date(), address = ''): Promise<SessionDocument> {
    const id = await nextSequence(this.connection, 'sessions');
    const created = await this.sessions.create({ _id: id, userId, secretHash, userAgent, address, lastUsedAt: now, expiresAt });
    return created.toObject();
  }

  findByHash(secretHash: string): Promise<SessionDocument | null> {
    return this.sessions.findOne({ secretHash }).lean<SessionDocument>();
  }

  listForUser(userId: number): Promise<SessionDocument[]> {
    return this.sessions.find({ userId }).sort({ _id: 1 }).lean<SessionDocument[]>();
  }

  async delete(userId: number, sessionId: number): Promise<boolean> {
    const result = await this.sessions.deleteOne({ _id: sessionId, userId });
    return result.deletedCount === 1;
  }

  async deleteById(sessionId: number): Promise<void> {
    await this.sessions.deleteOne({ _id: sessionId });
  }

  async deleteAllOf(userId: number): Promise<void> {
    await this.sessions.deleteMany({ userId });
  }

  async touch(session: SessionDocument, now = new Date()): Promise<void> {
    if (now.getTime() - session.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
    await this.sessions.updateOne({ _id: session._id }, { $set: { lastUsedAt: now } });
  }
}
