import { Connection, Schema } from 'mongoose';

/**
 * One app as the apps list shows it — its name, its live schemes and each scheme's live
 * channels — in one document, so a page of the list is one query whatever its size: FerretDB
 * 1.24 serves no `$in` (nor a range) from an index, so reading the page's schemes and channels
 * from their own collections costs a query per app and per scheme. Derived from the apps,
 * schemes and channels collections and rewritten whole after every write to them
 * (domain/app-trees.ts); never the source of anything else.
 */
export interface ChannelBranch {
  _id: number;
  schemeId: number;
  name: string;
  slug: string;
  deviceType: string;
  bundleId: string;
  gitUrl: string | null;
  minSupportedVersion: string | null;
  /** Whether the channel has a visit password: its hash stays in the channels collection. */
  hasPassword: boolean;
}

export interface SchemeBranch {
  _id: number;
  appId: number;
  name: string;
  newBuildCallout: boolean;
  retainedBuilds: number;
  channels: ChannelBranch[];
}

export interface AppTree {
  /** The app's id. */
  _id: number;
  name: string;
  /** The app's, for the list's order (newest first). */
  createdAt: Date;
  schemes: SchemeBranch[];
}

export interface AppTreeDocument extends AppTree {
  /** Raised by every rewrite, which expects the one it read: a refresh that read an older tree writes nothing. */
  revision: number;
}

const appTreeSchema = new Schema<AppTreeDocument>(
  {
    _id: { type: Number, required: true },
    name: { type: String, required: true },
    createdAt: { type: Date, required: true },
    // Written whole by every refresh and read as it is: no casting of the branches.
    schemes: { type: Schema.Types.Mixed, required: true },
    revision: { type: Number, required: true },
  },
  { collection: 'app_trees', versionKey: false, timestamps: false },
);
// The admin's page, newest first: served by this index on MongoDB (FerretDB sorts itself).
appTreeSchema.index({ createdAt: -1, _id: -1 });

export function appTreeModel(connection: Connection) {
  return connection.model<AppTreeDocument>('AppTree', appTreeSchema);
}

export type AppTreeModel = ReturnType<typeof appTreeModel>;
