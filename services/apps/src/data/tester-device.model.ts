import { Connection, Schema } from 'mongoose';

/**
 * An iOS device a tester registered through the `/udid` profile: its UDID, model and OS as the
 * device reported them, and the name the tester gave it. It belongs to the address (as a tester's
 * session does), so it follows the tester into every group; it goes when the address is in no group.
 */
export interface TesterDeviceDocument {
  _id: number;
  /** Lowercased, as on the memberships. */
  email: string;
  /** As the device sent it; matched against a profile's list without regard to case. */
  udid: string;
  /** Apple's model identifier (`iPhone15,2`). */
  product: string;
  /** The OS build the device reported (`21A329`). */
  osVersion: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
}

const testerDeviceSchema = new Schema<TesterDeviceDocument>(
  {
    _id: { type: Number, required: true },
    email: { type: String, required: true, index: true },
    udid: { type: String, required: true },
    product: { type: String, default: '' },
    osVersion: { type: String, default: '' },
    name: { type: String, required: true },
  },
  { collection: 'tester_devices', timestamps: true, versionKey: false },
);
// A device registered twice by one tester is one device (its model and OS brought up to date).
testerDeviceSchema.index({ email: 1, udid: 1 }, { unique: true });

export function testerDeviceModel(connection: Connection) {
  return connection.model<TesterDeviceDocument>('TesterDevice', testerDeviceSchema);
}

export type TesterDeviceModel = ReturnType<typeof testerDeviceModel>;
