import type { apps } from '@hangar/proto';
import { formatTimestamp } from '../../http/timestamps';

/** A tester as an app's admins see them: address, state and the last build they downloaded. */
export function presentTester(tester: apps.Tester) {
  return {
    id: tester.id,
    email: tester.email,
    state: tester.state,
    invited_at: formatTimestamp(tester.invitedAtMs),
    joined_at: tester.joinedAtMs ? formatTimestamp(tester.joinedAtMs) : null,
    last_download: tester.lastDownloadAtMs ? { release_id: tester.lastDownloadReleaseId, at: formatTimestamp(tester.lastDownloadAtMs) } : null,
  };
}

export function presentTesterGroup(group: apps.TesterGroup) {
  return {
    id: group.id,
    app_id: group.appId,
    name: group.name,
    channel_ids: group.channelIds,
    testers: group.testers.map(presentTester),
    created_at: formatTimestamp(group.createdAtMs),
  };
}

/** A join link: its URL only in the answer that made it (the secret is stored as a digest). */
export function presentJoinLink(link: apps.JoinLink, url?: string) {
  return {
    id: link.id,
    ...(url ? { url } : {}),
    expires_at: link.expiresAtMs ? formatTimestamp(link.expiresAtMs) : null,
    seats: link.seats,
    used_seats: link.usedSeats,
    created_at: formatTimestamp(link.createdAtMs),
  };
}

export const joinLinkUrl = (base: string, secret: string): string => `${base}/tester/join?token=${encodeURIComponent(secret)}`;
