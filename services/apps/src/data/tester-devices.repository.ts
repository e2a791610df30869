import type { Connection } from 'mongoose';
import { findEach, isDuplicateKeyError, nextSequence } from '@hangar/mongo';
import type { TesterDeviceDocument, TesterDeviceModel } from './tester-device.model';

export type DeviceReport = Pick<TesterDeviceDocument, 'udid' | 'product' | 'osVersion'>;

export class TesterDevicesRepository {
  constructor(
    private readonly connection: Connection,
    private readonly devices: TesterDeviceModel,
  ) {}

  /**
   * The device of this address with this UDID, made or brought up to date (model, OS; the name
   * the tester gave stays). Two registrations racing end at the unique index: the loser updates.
   */
  async register(email: string, report: DeviceReport, name: string): Promise<TesterDeviceDocument> {
    const existing = await this.findByUdid(email, report.udid);
    if (!existing) {
      try {
        const id = await nextSequence(this.connection, 'tester_devices');
        return (await this.devices.create({ _id: id, email, ...report, name })).toObject();
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    }
    await this.devices.updateOne({ email, udid: report.udid }, { $set: { product: report.product, osVersion: report.osVersion } });
    return (await this.findByUdid(email, report.udid))!;
  }

  findByUdid(email: string, udid: string): Promise<TesterDeviceDocument | null> {
    return this.devices.findOne({ email, udid }).lean<TesterDeviceDocument>();
  }

  async listByEmail(email: string): Promise<TesterDeviceDocument[]> {
    const devices = await this.devices.find({ email }).lean<TesterDeviceDocument[]>();
    return devices.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  /** The devices of several addresses (a channel's testers). */
  listByEmails(emails: readonly string[]): Promise<TesterDeviceDocument[]> {
    return findEach(emails, (email) => this.listByEmail(email));
  }

  countByEmail(email: string): Promise<number> {
    return this.devices.countDocuments({ email });
  }

  /** The device renamed; null when the address has no such device. */
  rename(email: string, id: number, name: string): Promise<TesterDeviceDocument | null> {
    return this.devices.findOneAndUpdate({ _id: id, email }, { $set: { name } }, { new: true }).lean<TesterDeviceDocument>();
  }

  async remove(email: string, id: number): Promise<boolean> {
    return (await this.devices.deleteOne({ _id: id, email })).deletedCount === 1;
  }

  /** The address is in no group any more: its devices are nobody's business. */
  async removeAllOf(email: string): Promise<void> {
    await this.devices.deleteMany({ email });
  }
}
