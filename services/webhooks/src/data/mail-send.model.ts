import { Connection, Schema } from 'mongoose';

/**
 * One new-build e-mail sent to one address: `<releaseId>:<email>`, written once SMTP took it. An
 * event redelivered after a failure (or a crash) sends only to the addresses not written yet — a
 * crash between the send and the write sends that one again (at least once, never lost).
 * Written in batches, read once per event: a build's 10,000 e-mails cost one read and a write per
 * batch, not three queries each.
 */
export interface MailSendDocument {
  _id: string;
  releaseId: number;
  /** Absent on records of an earlier version, written before the send: those were not sent for sure. */
  sentAt?: Date;
  createdAt: Date;
}

const mailSendSchema = new Schema<MailSendDocument>(
  {
    _id: { type: String, required: true },
    releaseId: { type: Number, required: true, index: true },
    sentAt: { type: Date },
  },
  { collection: 'mail_sends', timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);

export function mailSendModel(connection: Connection) {
  return connection.model<MailSendDocument>('MailSend', mailSendSchema);
}

export type MailSendModel = ReturnType<typeof mailSendModel>;
