import type { Connection } from 'mongoose';
import { Envelope, newOutbox, withEvents } from '@hangar/events';
import { findEach, isDuplicateKeyError, nextSequence } from '@hangar/mongo';
import { randomBase62 } from '@hangar/secrets';
import type { TesterDocument, TesterModel } from './tester.model';

export class TestersRepository {
  constructor(
    private readonly connection: Connection,
    private readonly testers: TesterModel,
  ) {}

  /**
   * A new membership of `email` in the group, with its tester.invited (the id is taken
   * first so the event can name it). Null when the address is in the group already: the
   * unique (groupId, email) index decides, a race of two invitations too. Callers look for
   * members first (one query for a whole list): a number taken for a duplicate is a gap.
   */
  async add(appId: number, groupId: number, email: string, linkBase: string, invited: (testerId: number) => Envelope): Promise<TesterDocument | null> {
    const id = await nextSequence(this.connection, 'testers');
    try {
      const created = await this.testers.create({ _id: id, appId, groupId, email, state: 'invited', invitedAt: new Date(), linkBase, unsubscribeKey: randomBase62(24), ...newOutbox(invited(id)) });
      return created.toObject();
    } catch (err) {
      if (isDuplicateKeyError(err)) return null;
      throw err;
    }
  }

  /** Invites an existing membership again (a join link used by someone already in the group). */
  async inviteAgain(tester: TesterDocument, linkBase: string, invited: Envelope): Promise<void> {
    await this.testers.updateOne({ _id: tester._id }, withEvents<TesterDocument>({ $set: { linkBase, invitedAt: new Date() } }, invited));
  }

  findById(id: number): Promise<TesterDocument | null> {
    return this.testers.findOne({ _id: id }).lean<TesterDocument>();
  }

  findInGroup(groupId: number, email: string): Promise<TesterDocument | null> {
    return this.testers.findOne({ groupId, email }).lean<TesterDocument>();
  }

  /** The groups' members, oldest first. One equality query per group (findEach: FerretDB scans an $in). */
  async listByGroups(groupIds: number[]): Promise<TesterDocument[]> {
    const rows = await findEach(groupIds, (groupId) => this.testers.find({ groupId }).lean<TesterDocument[]>());
    return rows.sort((a, b) => a._id - b._id);
  }

  /** Every membership of an address, across apps: what a tester session opens. */
  listByEmail(email: string): Promise<TesterDocument[]> {
    return this.testers.find({ email }).lean<TesterDocument[]>();
  }

  /** Mutes new-build e-mail of one membership, when the key is its own. */
  async unsubscribe(id: number, key: string): Promise<boolean> {
    const tester = await this.findById(id);
    if (!tester?.unsubscribeKey || tester.unsubscribeKey !== key) return false;
    await this.testers.updateOne({ _id: id }, { $set: { notify: false } });
    return true;
  }

  async markJoined(email: string, at: Date): Promise<void> {
    await this.testers.updateMany({ email, state: 'invited' }, { $set: { state: 'joined', joinedAt: at } });
  }

  async recordDownload(ids: number[], releaseId: number, at: Date): Promise<void> {
    for (const id of ids) await this.testers.updateOne({ _id: id }, { $set: { lastDownloadReleaseId: releaseId, lastDownloadAt: at } });
  }

  async remove(groupId: number, testerId: number): Promise<TesterDocument | null> {
    const tester = await this.testers.findOne({ _id: testerId, groupId }).lean<TesterDocument>();
    if (!tester || (await this.testers.deleteOne({ _id: testerId })).deletedCount !== 1) return null;
    return tester;
  }

  /** The group's members, removed; their addresses returned (whose sessions may have to end). */
  async removeGroup(groupId: number): Promise<string[]> {
    const members = await this.testers.find({ groupId }, { email: 1 }).lean<{ email: string }[]>();
    await this.testers.deleteMany({ groupId });
    return [...new Set(members.map((m) => m.email))];
  }
}
