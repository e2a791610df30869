import { findEach, isDuplicateKeyError } from '@hangar/mongo';
import { AppTree, AppTreeDocument, AppTreeModel } from './app-tree.model';

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/** The apps list's documents (app-tree.model.ts): one per live app. */
export class AppTreesRepository {
  constructor(private readonly trees: AppTreeModel) {}

  /**
   * Newest first; `ids` limits the page to those apps (undefined: all). Every app of the page
   * comes with its schemes and channels, so the page costs the same queries at 10 apps as at
   * 100: two for all apps, one per app of `ids` (findEach: FerretDB serves no `$in` from an
   * index; they are the apps a user collaborates on).
   */
  async page(ids: number[] | undefined, skip: number, limit: number): Promise<{ trees: AppTreeDocument[]; total: number }> {
    if (ids !== undefined) {
      const trees = await findEach(ids, (id) => this.trees.find({ _id: id }).lean<AppTreeDocument[]>());
      trees.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b._id - a._id);
      return { trees: trees.slice(skip, skip + limit), total: trees.length };
    }
    const [trees, total] = await Promise.all([
      this.trees.find({}).sort(NEWEST_FIRST).skip(skip).limit(limit).lean<AppTreeDocument[]>(),
      this.trees.countDocuments({}),
    ]);
    return { trees, total };
  }

  findById(id: number): Promise<AppTreeDocument | null> {
    return this.trees.findOne({ _id: id }).lean<AppTreeDocument>();
  }

  /** Every tree: the repair at start compares each with what its app holds. */
  all(): Promise<AppTreeDocument[]> {
    return this.trees.find({}).lean<AppTreeDocument[]>();
  }

  /**
   * Writes `tree` over the one read at `revision` (none read: a first one). False when another
   * refresh wrote in between — the caller reads both again.
   */
  async write(tree: AppTree, revision: number | undefined): Promise<boolean> {
    const fields = { name: tree.name, createdAt: tree.createdAt, schemes: tree.schemes };
    if (revision === undefined) {
      try {
        await this.trees.create({ _id: tree._id, ...fields, revision: 1 });
        return true;
      } catch (err) {
        if (isDuplicateKeyError(err)) return false;
        throw err;
      }
    }
    const result = await this.trees.updateOne({ _id: tree._id, revision }, { $set: { ...fields, revision: revision + 1 } });
    return result.modifiedCount === 1;
  }

  async remove(id: number): Promise<void> {
    await this.trees.deleteOne({ _id: id });
  }
}
