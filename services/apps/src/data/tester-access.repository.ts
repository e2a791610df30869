import { randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import { isDuplicateKeyError, nextSequence } from '@hangar/mongo';
import type { CountedJoinLink, JoinLinkDocument, SignInLinkDocument, TesterAccessModels, TesterSessionDocument } from './tester-access.model';

const MAX_SEAT_TRIES = 50;

export class TesterAccessRepository {
  constructor(
    private readonly connection: Connection,
    private readonly models: TesterAccessModels,
  ) {}

  async createJoinLink(link: { appId: number; groupId: number; secretHash: string; expiresAt?: Date; seats: number; linkBase: string }): Promise<JoinLinkDocument> {
    const id = await nextSequence(this.connection, 'tester_join_links');
    return (await this.models.joinLinks.create({ _id: id, ...link })).toObject();
  }

  findJoinLink(secretHash: string): Promise<JoinLinkDocument | null> {
    return this.models.joinLinks.findOne({ secretHash }).lean<JoinLinkDocument>();
  }

  /**
   * A group's join links, each link's taken seats counted from its seat documents: those decide
   * who got a seat (takeSeat), while a count written on the link by each taker could be overwritten
   * by a slower taker's smaller number (two joined at once, and the list said one).
   */
  async listJoinLinks(groupId: number): Promise<CountedJoinLink[]> {
    const links = await this.models.joinLinks.find({ groupId }).lean<JoinLinkDocument[]>();
    const counted = await Promise.all(
      links.map(async (link) => ({ ...link, usedSeats: link.seats > 0 ? await this.models.joinSeats.countDocuments({ linkId: link._id }) : 0 })),
    );
    return counted.sort((a, b) => a._id - b._id);
  }

  async deleteJoinLink(groupId: number, id: number): Promise<boolean> {
    const deleted = (await this.models.joinLinks.deleteOne({ _id: id, groupId })).deletedCount === 1;
    if (deleted) await this.models.joinSeats.deleteMany({ linkId: id });
    return deleted;
  }

  async deleteJoinLinksOfGroup(groupId: number): Promise<void> {
    for (const link of await this.listJoinLinks(groupId)) await this.deleteJoinLink(groupId, link._id);
  }

  /** Takes one seat of a limited link; false when every seat is taken. Races end at the unique seat number. */
  async takeSeat(link: JoinLinkDocument): Promise<boolean> {
    // One document per taken seat: a unique insert, not an increment, decides the last seat (FerretDB 1.x has no atomic $inc).
    const seats = this.models.joinSeats;
    for (let i = 0; i < MAX_SEAT_TRIES; i++) {
      const taken = await seats.countDocuments({ linkId: link._id });
      if (taken >= link.seats) return false;
      try {
        await seats.create({ _id: `${link._id}:${taken + 1}`, linkId: link._id });
        return true;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    }
    return false;
  }

  async createSignInLink(testerId: number, email: string, secretHash: string, expiresAt: Date): Promise<SignInLinkDocument> {
    return (await this.models.signInLinks.create({ _id: randomUUID(), testerId, email, secretHash, expiresAt })).toObject();
  }

  /** The link, removed: only the caller whose delete removed it gets it, so a link signs in once. */
  async redeemSignInLink(secretHash: string): Promise<SignInLinkDocument | null> {
    const link = await this.models.signInLinks.findOne({ secretHash }).lean<SignInLinkDocument>();
    if (!link) return null;
    return (await this.models.signInLinks.deleteOne({ _id: link._id })).deletedCount === 1 ? link : null;
  }

  async createSession(email: string, secretHash: string, userAgent: string, expiresAt: Date): Promise<TesterSessionDocument> {
    const id = await nextSequence(this.connection, 'tester_sessions');
    const now = new Date();
    return (await this.models.sessions.create({ _id: id, email, secretHash, userAgent, expiresAt, lastUsedAt: now })).toObject();
  }

  findSession(secretHash: string): Promise<TesterSessionDocument | null> {
    return this.models.sessions.findOne({ secretHash }).lean<TesterSessionDocument>();
  }

  findSessionById(id: number): Promise<TesterSessionDocument | null> {
    return this.models.sessions.findOne({ _id: id }).lean<TesterSessionDocument>();
  }

  async deleteSession(id: number): Promise<void> {
    await this.models.sessions.deleteOne({ _id: id });
  }

  /** Ends every session and unused sign-in link of an address: it is in no group any more. */
  async endAccessOf(email: string): Promise<void> {
    await this.models.sessions.deleteMany({ email });
    await this.models.signInLinks.deleteMany({ email });
  }
}
