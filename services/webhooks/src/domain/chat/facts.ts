/**
 * What a chat message says, read from the frozen generic payload
 * (docs/events.md "The body"), so every preset tells the same story and a
 * preset never needs more than a delivery already keeps.
 */

/** A new build: the message every preset is for. */
export interface NewBuildFacts {
  kind: 'new-build';
  appName: string;
  /** `1.2.3 (5)`: the release version and its build. */
  version: string;
  /** `Beta / Android`: scheme and channel. */
  channel: string;
  platform: string;
  /** Release notes, one `- ` line per changelog entry; empty when there are none. */
  notes: string;
  /** The build's install page, only when absolute http(s): chat platforms refuse relative or itms-services links. */
  pageUrl?: string;
  /** Branch and commit, when the upload named them. */
  source?: string;
  /** `#7`: the build's number in its channel. */
  number: string;
}

/** Any other event (a test, a deletion…): one line. */
export interface NoticeFacts {
  kind: 'notice';
  appName: string;
  title: string;
  text: string;
}

export type ChatFacts = NewBuildFacts | NoticeFacts;

type Payload = {
  app?: { name?: string | null; id?: number };
  scheme?: { name?: string };
  channel?: { name?: string };
  message?: string;
  release?: {
    app_name?: string;
    release_version?: string;
    build_version?: string;
    version?: number;
    platform?: string;
    changelog?: { message: string }[];
    release_url?: string;
    branch?: string;
    git_commit?: string;
  };
};

/** Only an absolute http(s) URL becomes a link or button (PUBLIC_BASE_URL unset leaves URLs relative). */
export function absoluteHttpUrl(url: string | undefined): string | undefined {
  return url && /^https?:\/\//i.test(url) ? url : undefined;
}

export function factsOf(event: string, payloadJson: string): ChatFacts {
  const payload = JSON.parse(payloadJson) as Payload;
  // The app as the team named it in Hangar; the package's own display name only when that is gone (app.deleted).
  const appName = payload.app?.name || payload.release?.app_name || `App ${payload.app?.id ?? ''}`.trim();
  const release = payload.release;
  if (event === 'release.created' && release) {
    const build = release.build_version ? ` (${release.build_version})` : '';
    const source = [release.branch, release.git_commit?.slice(0, 12)].filter(Boolean).join(' @ ');
    return {
      kind: 'new-build',
      appName,
      version: `${release.release_version ?? ''}${build}`.trim() || 'unknown version',
      channel: [payload.scheme?.name, payload.channel?.name].filter(Boolean).join(' / '),
      platform: release.platform ?? '',
      notes: (release.changelog ?? []).map((e) => `- ${e.message}`).join('\n'),
      pageUrl: absoluteHttpUrl(release.release_url),
      ...(source ? { source } : {}),
      number: release.version ? `#${release.version}` : '',
    };
  }
  if (event === 'webhook.test') return { kind: 'notice', appName, title: `Hangar test message for ${appName}`, text: payload.message ?? 'This is a test delivery from Hangar.' };
  return { kind: 'notice', appName, title: `${appName}: ${event}`, text: `Hangar event \`${event}\` on ${appName}.` };
}

/**
 * At most `max` UTF-16 code units (how Slack, Discord and Teams count), ending
 * in `…` when cut, never splitting a surrogate pair.
 */
export function trimText(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** At most `max` UTF-8 bytes (how WeCom and DingTalk count), ending in `…` when cut, never splitting a character. */
export function trimBytes(text: string, max: number): string {
  if (Buffer.byteLength(text, 'utf8') <= max) return text;
  const room = max - Buffer.byteLength('…', 'utf8');
  let out = '';
  let used = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch, 'utf8');
    if (used + size > room) break;
    out += ch;
    used += size;
  }
  return `${out}…`;
}
