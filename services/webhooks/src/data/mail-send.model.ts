import { Connection, Schema } from 'mongoose';

/**
 * One new-build e-mail to one address: `<releaseId>:<email>`. Written before the mail is handed
 * to SMTP and marked sent after, so an event redelivered after a failure (or a crash) sends
 * only what was not sent yet — a crash between the two sends that one again (at least once).
 */
export interface MailSendDocument {
  _id: string;
  releaseId: number;
  sentAt?: Date;
  createdAt: Date;
}

const mailSendSchema = new Schema<MailSendDocument>(
  {
    _id: { type: String, required: true },
    releaseId: { type: Number, required: true },
    sentAt: { type: Date },
  },
  { collection: 'mail_sends', timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);

export function mailSendModel(connection: Connection) {
  return connection.model<MailSendDocument>('MailSend', mailSendSchema);
}

export type MailSendModel = ReturnType<typeof mailSendModel>;
