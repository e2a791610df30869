import type { Connection } from 'mongoose';
import { AlreadyExists } from '@hangar/errors';
import { Envelope, newOutbox, withEvents } from '@hangar/events';
import { findEach, isDuplicateKeyError, nextSequence } from '@hangar/mongo';
import { UserDocument, UserModel } from './user.model';

/** Live users only: tombstoned (deleted) ones are invisible everywhere. */
const LIVE = { deletedAt: { $exists: false } };

export type NewUser = Pick<UserDocument, 'username' | 'email' | 'passwordHash' | 'locale' | 'appearance' | 'timezone' | 'role' | 'mustChangePassword'>;
export type UserChanges = Partial<NewUser>;

export class UsersRepository {
  constructor(
    private readonly connection: Connection,
    private readonly users: UserModel,
  ) {}

  async create(user: NewUser): Promise<UserDocument> {
    await this.assertUnique(user.username, user.email);
    const id = await nextSequence(this.connection, 'users');
    try {
      const created = await this.users.create({ _id: id, ...user, usernameKey: user.username.toLowerCase(), ...newOutbox() });
      return created.toObject();
    } catch (err) {
      // Lost a race with a concurrent create of the same name or email.
      if (isDuplicateKeyError(err)) throw new AlreadyExists('A user with this username or email already exists');
      throw err;
    }
  }

  findById(id: number): Promise<UserDocument | null> {
    return this.users.findOne({ _id: id, ...LIVE }).lean<UserDocument>();
  }

  /** The live user a single sign-on identity was bound to (`identityKeyOf`). */
  findByIdentity(identityKey: string): Promise<UserDocument | null> {
    return this.users.findOne({ identityKey, ...LIVE }).lean<UserDocument>();
  }

  /** Binds (or re-binds, after the provider changed) the user's single sign-on identity. */
  bindIdentity(id: number, identityKey: string): Promise<UserDocument | null> {
    return this.users.findOneAndUpdate({ _id: id, ...LIVE }, { $set: { identityKey } }, { new: true }).lean<UserDocument>();
  }

  async findByIds(ids: number[]): Promise<UserDocument[]> {
    const users = await findEach(ids, (id) => this.users.find({ _id: id, ...LIVE }).lean<UserDocument[]>());
    return users.sort((a, b) => a._id - b._id);
  }

  findByEmail(email: string): Promise<UserDocument | null> {
    return this.users.findOne({ email, ...LIVE }).lean<UserDocument>();
  }

  async page(skip: number, limit: number): Promise<{ users: UserDocument[]; total: number }> {
    const [users, total] = await Promise.all([
      this.users.find(LIVE).sort({ _id: 1 }).skip(skip).limit(limit).lean<UserDocument[]>(),
      this.users.countDocuments(LIVE),
    ]);
    return { users, total };
  }

  countAdmins(): Promise<number> {
    return this.users.countDocuments({ role: 'admin', ...LIVE });
  }

  async update(id: number, changes: UserChanges): Promise<UserDocument | null> {
    await this.assertUnique(changes.username, changes.email, id);
    const set: Record<string, unknown> = { ...changes };
    if (changes.username) set.usernameKey = changes.username.toLowerCase();
    try {
      return await this.users.findOneAndUpdate({ _id: id, ...LIVE }, { $set: set }, { new: true }).lean<UserDocument>();
    } catch (err) {
      if (isDuplicateKeyError(err)) throw new AlreadyExists('A user with this username or email already exists');
      throw err;
    }
  }

  /**
   * Tombstones the user and records the event in the same write. The unique
   * name and email are released at once so they can be used again.
   */
  async markDeleted(id: number, event: Envelope): Promise<boolean> {
    const result = await this.users.updateOne(
      { _id: id, ...LIVE },
      withEvents<UserDocument>({ $set: { deletedAt: new Date(), usernameKey: `deleted-${id}`, email: `deleted-${id}@deleted.invalid` } }, event),
    );
    return result.modifiedCount === 1;
  }

  /** Clear messages for the common conflicts; the unique indexes still decide races. */
  private async assertUnique(username?: string, email?: string, exceptId?: number): Promise<void> {
    const except = exceptId === undefined ? {} : { _id: { $ne: exceptId } };
    const [nameTaken, emailTaken] = await Promise.all([
      username ? this.users.exists({ usernameKey: username.toLowerCase(), ...except }) : null,
      email ? this.users.exists({ email, ...except }) : null,
    ]);
    const entry: Record<string, string[]> = {};
    if (nameTaken) entry.username = ['has already been taken'];
    if (emailTaken) entry.email = ['has already been taken'];
    if (Object.keys(entry).length > 0) throw new AlreadyExists(`User already exists: ${Object.keys(entry).join(', ')} taken`, entry);
  }
}
