import { Connection, Schema } from 'mongoose';

export interface CollaboratorDocument {
  _id: number;
  appId: number;
  userId: number;
  role: string;
  createdAt: Date;
  updatedAt: Date;
}

const collaboratorSchema = new Schema<CollaboratorDocument>(
  {
    _id: { type: Number, required: true },
    appId: { type: Number, required: true },
    userId: { type: Number, required: true, index: true },
    role: { type: String, required: true },
  },
  { collection: 'collaborators', timestamps: true, versionKey: false },
);
// One membership per user and app: the index, not a read-then-write check, decides races.
collaboratorSchema.index({ appId: 1, userId: 1 }, { unique: true });

export function collaboratorModel(connection: Connection) {
  return connection.model<CollaboratorDocument>('Collaborator', collaboratorSchema);
}

export type CollaboratorModel = ReturnType<typeof collaboratorModel>;
