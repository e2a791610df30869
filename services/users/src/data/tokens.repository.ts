import type { Connection } from 'mongoose';
import { nextSequence } from '@hangar/mongo';
import { TokenDocument, TokenModel } from './token.model';

export type TokenLimits = Pick<TokenDocument, 'scopes' | 'appIds' | 'expiresAt'>;

/** Writing last-used on every request would turn reads into writes; once a minute is enough. */
const LAST_USED_RESOLUTION_MS = 60_000;

export class TokensRepository {
  constructor(
    private readonly connection: Connection,
    private readonly tokens: TokenModel,
  ) {}

  async create(userId: number, name: string, tokenHash: string, hint: string, limits: TokenLimits = {}): Promise<TokenDocument> {
    const id = await nextSequence(this.connection, 'tokens');
    const created = await this.tokens.create({ _id: id, userId, name, tokenHash, hint, ...limits });
    return created.toObject();
  }

  findByHash(tokenHash: string): Promise<TokenDocument | null> {
    return this.tokens.findOne({ tokenHash }).lean<TokenDocument>();
  }

  listForUser(userId: number): Promise<TokenDocument[]> {
    return this.tokens.find({ userId }).sort({ _id: 1 }).lean<TokenDocument[]>();
  }

  async delete(userId: number, tokenId: number): Promise<boolean> {
    const result = await this.tokens.deleteOne({ _id: tokenId, userId });
    return result.deletedCount === 1;
  }

  async deleteAllOf(userId: number): Promise<void> {
    await this.tokens.deleteMany({ userId });
  }

  /** A use from another address is written at once: where a token is used from matters more than when. */
  async touch(token: TokenDocument, address: string, now = new Date()): Promise<void> {
    const sameAddress = !address || token.lastUsedAddress === address;
    if (sameAddress && token.lastUsedAt && now.getTime() - token.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
    await this.tokens.updateOne({ _id: token._id }, { $set: { lastUsedAt: now, ...(address ? { lastUsedAddress: address } : {}) } });
  }
}
