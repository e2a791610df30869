import { Connection, Schema } from 'mongoose';

/** A named set of testers of one app, and the channels it opens to them. */
export interface TesterGroupDocument {
  _id: number;
  appId: number;
  name: string;
  /** Lowercased name: one group of a name per app, whatever its case. */
  nameKey: string;
  channelIds: number[];
  createdAt: Date;
  updatedAt: Date;
}

const testerGroupSchema = new Schema<TesterGroupDocument>(
  {
    _id: { type: Number, required: true },
    appId: { type: Number, required: true },
    name: { type: String, required: true },
    nameKey: { type: String, required: true },
    channelIds: { type: [Number], default: [] },
  },
  { collection: 'tester_groups', timestamps: true, versionKey: false },
);
testerGroupSchema.index({ appId: 1, nameKey: 1 }, { unique: true });

export function testerGroupModel(connection: Connection) {
  return connection.model<TesterGroupDocument>('TesterGroup', testerGroupSchema);
}

export type TesterGroupModel = ReturnType<typeof testerGroupModel>;
