import type { Request } from 'express';
import { readFileSync } from 'node:fs';
import { PayloadTooLarge, Unauthenticated } from '@hangar/errors';
import type { SignedTokens } from '../../install/signed-tokens';
import { DEVICE_ANSWER_MAX_BYTES } from './device-answer';
import { ProfileSigner } from './profile-signer';

/** How long the challenge of a downloaded `/udid` profile stays good: installing it is a minute's work. */
export const CHALLENGE_TTL_SECONDS = 30 * 60;

/**
 * What the device registration needs beside the services: the install pages' signing secret (the
 * profile's challenge names the tester's session), and the profile's signer when one is configured.
 */
export interface DeviceEnrolment {
  tokens: SignedTokens;
  profileSigner?: ProfileSigner;
  /** The name iOS shows on the profile. */
  organisation: string;
}

/** UDID_PROFILE_CERT and UDID_PROFILE_KEY (paths of PEM files), both or neither: a signer, or none. */
export async function profileSignerFrom(certPath?: string, keyPath?: string): Promise<ProfileSigner | undefined> {
  if (!certPath && !keyPath) return undefined;
  if (!certPath || !keyPath) throw new Error('UDID_PROFILE_CERT and UDID_PROFILE_KEY go together');
  return ProfileSigner.fromPem(readFileSync(certPath, 'utf8'), readFileSync(keyPath, 'utf8'));
}

/** The challenge of one tester session's profile. */
export function signChallenge(enrolment: DeviceEnrolment, sessionId: number): string {
  return enrolment.tokens.sign(`udid:${sessionId}`, CHALLENGE_TTL_SECONDS);
}

/** The session a challenge was signed for; a forged, expired or foreign one is refused. */
export function sessionOfChallenge(enrolment: DeviceEnrolment, challenge: string | undefined): number {
  const subject = enrolment.tokens.subjectOf(challenge);
  const match = subject ? /^udid:(\d{1,15})$/.exec(subject) : null;
  if (!match) throw new Unauthenticated('This registration profile has expired or is not one of ours: download it again from /udid');
  return Number(match[1]);
}

/** The device's answer, read whole but never past DEVICE_ANSWER_MAX_BYTES (a 400 past it). */
export async function readAnswerBody(req: Request): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > DEVICE_ANSWER_MAX_BYTES) throw new PayloadTooLarge(`A device's answer is at most ${DEVICE_ANSWER_MAX_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
