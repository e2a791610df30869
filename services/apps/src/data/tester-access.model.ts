import { Connection, Schema } from 'mongoose';

/**
 * The three secrets a tester may hold, each stored as its SHA-256 only: a group's
 * shareable join link, a single-use sign-in link (what an invitation e-mail carries), and
 * the session a sign-in link starts. No TTL index (FerretDB has none): expiry is checked
 * on every use.
 */

export interface JoinLinkDocument {
  _id: number;
  appId: number;
  groupId: number;
  secretHash: string;
  expiresAt?: Date;
  /** 0: no limit. */
  seats: number;
  /** The origin the sign-in links of those who join by it start with: the admin's, when they made it. */
  linkBase: string;
  createdAt: Date;
}

export interface SignInLinkDocument {
  /** A random UUID, not a counter's number: one is made per e-mail, 10,000 for a big group's new build. */
  _id: string;
  testerId: number;
  email: string;
  secretHash: string;
  expiresAt: Date;
  createdAt: Date;
}

export interface TesterSessionDocument {
  _id: number;
  email: string;
  secretHash: string;
  userAgent: string;
  expiresAt: Date;
  lastUsedAt: Date;
  createdAt: Date;
}

const joinLinkSchema = new Schema<JoinLinkDocument>(
  {
    _id: { type: Number, required: true },
    appId: { type: Number, required: true, index: true },
    groupId: { type: Number, required: true, index: true },
    secretHash: { type: String, required: true, unique: true },
    expiresAt: { type: Date },
    seats: { type: Number, required: true },
    linkBase: { type: String, default: '' },
  },
  { collection: 'tester_join_links', timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);

const signInLinkSchema = new Schema<SignInLinkDocument>(
  {
    _id: { type: String, required: true },
    testerId: { type: Number, required: true },
    email: { type: String, required: true, index: true },
    secretHash: { type: String, required: true, unique: true },
    expiresAt: { type: Date, required: true },
  },
  { collection: 'tester_sign_in_links', timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);

const testerSessionSchema = new Schema<TesterSessionDocument>(
  {
    _id: { type: Number, required: true },
    email: { type: String, required: true, index: true },
    secretHash: { type: String, required: true, unique: true },
    userAgent: { type: String, default: '' },
    expiresAt: { type: Date, required: true },
    lastUsedAt: { type: Date, required: true },
  },
  { collection: 'tester_sessions', timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);

/** A join link with its taken seats, counted from its seat documents (which alone decide the seats). */
export type CountedJoinLink = JoinLinkDocument & { usedSeats: number };

/** One taken seat of a limited join link: `<linkId>:<n>`, so a unique insert decides the last seat. */
export interface JoinSeatDocument {
  _id: string;
  linkId: number;
}

const joinSeatSchema = new Schema<JoinSeatDocument>(
  {
    _id: { type: String, required: true },
    linkId: { type: Number, required: true, index: true },
  },
  { collection: 'tester_join_seats', versionKey: false },
);

export function testerAccessModels(connection: Connection) {
  return {
    joinSeats: connection.model<JoinSeatDocument>('TesterJoinSeat', joinSeatSchema),
    joinLinks: connection.model<JoinLinkDocument>('TesterJoinLink', joinLinkSchema),
    signInLinks: connection.model<SignInLinkDocument>('TesterSignInLink', signInLinkSchema),
    sessions: connection.model<TesterSessionDocument>('TesterSession', testerSessionSchema),
  };
}

export type TesterAccessModels = ReturnType<typeof testerAccessModels>;
