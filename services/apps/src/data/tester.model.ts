import { Connection, Schema } from 'mongoose';
import { OutboxFields, outboxSchemaFields } from '@hangar/events';

export const TESTER_STATES = ['invited', 'joined'] as const;
export type TesterState = (typeof TESTER_STATES)[number];

/**
 * One e-mail address in one tester group. A person in two groups has two of these; what
 * identifies them across groups (and signs them in) is the address. Carries
 * tester.invited in its outbox: the mailer sends the invitation.
 */
export interface TesterDocument extends OutboxFields {
  _id: number;
  appId: number;
  groupId: number;
  /** Lowercased. */
  email: string;
  state: TesterState;
  invitedAt: Date;
  joinedAt?: Date;
  lastDownloadReleaseId?: number;
  lastDownloadAt?: Date;
  /** The origin the invitation's sign-in link starts with (the gateway's public URL when invited). */
  linkBase: string;
  /** False once the tester unsubscribed from new-build e-mail (of this group). */
  notify?: boolean;
  /**
   * In each new-build e-mail's unsubscribe link. Not a credential: it turns off that e-mail of this
   * membership and nothing else, so it is kept as it is sent.
   */
  unsubscribeKey?: string;
  createdAt: Date;
  updatedAt: Date;
}

const testerSchema = new Schema<TesterDocument>(
  {
    _id: { type: Number, required: true },
    appId: { type: Number, required: true, index: true },
    groupId: { type: Number, required: true },
    email: { type: String, required: true, index: true },
    state: { type: String, required: true },
    invitedAt: { type: Date, required: true },
    joinedAt: { type: Date },
    lastDownloadReleaseId: { type: Number },
    lastDownloadAt: { type: Date },
    linkBase: { type: String, default: '' },
    notify: { type: Boolean },
    unsubscribeKey: { type: String },
    ...outboxSchemaFields,
  },
  { collection: 'testers', timestamps: true, versionKey: false },
);
// One membership per address and group: the index decides races between two invitations.
testerSchema.index({ groupId: 1, email: 1 }, { unique: true });

export function testerModel(connection: Connection) {
  return connection.model<TesterDocument>('Tester', testerSchema);
}

export type TesterModel = ReturnType<typeof testerModel>;
