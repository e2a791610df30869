import { CHAT_MESSAGE_CHECKS, adaptiveCardProblems, discordMessageProblems, slackMessageProblems, teamsMessageProblems, wecomMessageProblems } from '@hangar/testing';
import { factsOf, trimBytes, trimText } from './facts';
import { WEBHOOK_FORMATS, chatBody } from './formats';

/** A release.created payload as a delivery freezes it (docs/events.md), with notes as long as a changelog can be. */
function newBuild(overrides: { changelog?: string[]; releaseUrl?: string } = {}) {
  return JSON.stringify({
    event_id: 'e1',
    occurred_at: '2026-11-28T10:00:00.000+00:00',
    app: { id: 4, name: 'Hooked' },
    scheme: { id: 5, name: 'Beta' },
    channel: { id: 6, slug: 'abc', name: 'Android', device_type: 'android' },
    release: {
      id: 9,
      version: 7,
      app_name: 'AppInfoDemo',
      release_version: '1.2.3',
      build_version: '45',
      platform: 'Android',
      branch: 'main',
      git_commit: '0123456789abcdef0123',
      release_url: overrides.releaseUrl ?? 'https://hangar.example.com/releases/9',
      install_url: 'https://hangar.example.com/api/releases/9/download',
      changelog: (overrides.changelog ?? ['Fixed the <login> crash & sped up sync', 'New onboarding']).map((message) => ({ message })),
    },
  });
}

// 12,000 characters of notes mixing ASCII, CJK and emoji (surrogate pairs), past every platform's limit.
const LONG_NOTES = Array.from({ length: 400 }, (_, i) => `Change ${i}: 修复崩溃 🚀 and more words`);
const chatFormats = WEBHOOK_FORMATS.filter((f) => f !== 'generic');

describe('chat presets', () => {
  it.each(chatFormats)('when a new build is sent as %s, then the platform would take the message', (format) => {
    const body = JSON.parse(chatBody(format, 'release.created', newBuild()));
    expect(CHAT_MESSAGE_CHECKS[format]!(body)).toEqual([]);
    const text = JSON.stringify(body);
    for (const said of ['Hooked', '1.2.3 (45)', 'Beta / Android', 'New onboarding', 'https://hangar.example.com/releases/9']) expect({ format, said, found: text.includes(said) }).toEqual({ format, said, found: true });
  });

  it.each(chatFormats)('when the release notes are longer than %s allows, then they are trimmed and the message is still taken with its install link', (format) => {
    const body = JSON.parse(chatBody(format, 'release.created', newBuild({ changelog: LONG_NOTES })));
    expect(CHAT_MESSAGE_CHECKS[format]!(body)).toEqual([]);
    const text = JSON.stringify(body);
    expect(text).toContain('…');
    expect(text).toContain('https://hangar.example.com/releases/9');
    expect(text).toContain('Change 0:');
  });

  it.each(chatFormats)('when the test event is sent as %s, then the platform would take it', (format) => {
    const body = JSON.parse(chatBody(format, 'webhook.test', JSON.stringify({ app: { id: 4, name: 'Hooked' }, message: 'This is a test delivery from Hangar.' })));
    expect(CHAT_MESSAGE_CHECKS[format]!(body)).toEqual([]);
    expect(JSON.stringify(body)).toContain('Hangar test message for Hooked');
  });

  it('when PUBLIC_BASE_URL is unset (relative links), then no preset carries a link a platform would refuse', () => {
    for (const format of chatFormats) {
      const text = chatBody(format, 'release.created', newBuild({ releaseUrl: '/releases/9' }));
      expect({ format, problems: CHAT_MESSAGE_CHECKS[format]!(JSON.parse(text)) }).toEqual({ format, problems: [] });
      expect({ format, relative: text.includes('/releases/9') }).toEqual({ format, relative: false });
    }
  });

  it('when Slack gets notes with < and &, then they are escaped, not read as links or entities', () => {
    const body = JSON.parse(chatBody('slack', 'release.created', newBuild()));
    expect(JSON.stringify(body.blocks)).toContain('Fixed the &lt;login&gt; crash &amp; sped up sync');
    expect(body.blocks.find((b: { type: string }) => b.type === 'actions').elements[0]).toMatchObject({ type: 'button', url: 'https://hangar.example.com/releases/9', text: { text: 'Install' } });
  });

  it('when Teams gets a new build, then the card is Adaptive Card 1.4 with an Install action the library parses without a complaint', () => {
    const body = JSON.parse(chatBody('teams', 'release.created', newBuild({ changelog: LONG_NOTES })));
    const card = body.attachments[0].content;
    expect(card).toMatchObject({ type: 'AdaptiveCard', version: '1.4', actions: [{ type: 'Action.OpenUrl', title: 'Install', url: 'https://hangar.example.com/releases/9' }] });
    expect(adaptiveCardProblems(card, '1.4')).toEqual([]);
  });

  // The checks themselves: each must see what a platform refuses, or the tests above prove nothing.
  it('when a message breaks a platform rule, then its check names the problem', () => {
    expect(slackMessageProblems({ text: 'x', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'a'.repeat(3001) } }] })).toEqual(['blocks[0] (section) text is 3001 characters, over 3000']);
    expect(slackMessageProblems({ text: 'x', blocks: [{ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Go' }, url: '/relative' }] }] })).toEqual([
      'blocks[0] (actions) button url /relative is not an http(s) URL of at most 3000 characters',
    ]);
    expect(discordMessageProblems({ embeds: [{ title: 't', description: 'd'.repeat(4097), fields: Array.from({ length: 26 }, () => ({ name: 'n', value: 'v' })) }] })).toEqual([
      'embeds[0] description is 4097 characters, over 4096',
      'embeds[0] has 26 fields, over 25',
    ]);
    const card = { type: 'AdaptiveCard', version: '1.4', body: [{ type: 'TextBlock', text: 'hi', size: 'huge' }, { type: 'Nope' }], actions: [{ type: 'Action.OpenUrl', title: 'Install' }] };
    expect(teamsMessageProblems({ type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', content: card }] })).toEqual([
      'parse: Invalid value "huge" for property "size".',
      'parse: Unknown element type "Nope". Fallback will be used if present.',
      'validate: Property "url" must be set.',
    ]);
    expect(adaptiveCardProblems({ type: 'AdaptiveCard', version: '1.6', body: [] }, '1.5')).toContain('version 1.6 is not a valid version up to 1.5');
    expect(wecomMessageProblems({ msgtype: 'markdown', markdown: { content: '修'.repeat(1366) } })).toEqual(['markdown.content is 4098 bytes, over 4096']);
  });

  it('when text is trimmed, then it fits, ends in an ellipsis and never splits a character', () => {
    expect(trimText('a🚀b', 3)).toBe('a…');
    expect(trimText('abc', 3)).toBe('abc');
    expect(trimText('abcd', 3)).toBe('ab…');
    expect(trimBytes('修修修', 7)).toBe('修…');
    expect(Buffer.byteLength(trimBytes('修'.repeat(2000), 4096))).toBeLessThanOrEqual(4096);
  });

  it('when an event other than a new build arrives, then the preset says which event on which app', () => {
    expect(factsOf('release.deleted', JSON.stringify({ app: { id: 4, name: 'Hooked' }, data: { release_id: 9 } }))).toEqual({
      kind: 'notice',
      appName: 'Hooked',
      title: 'Hooked: release.deleted',
      text: 'Hangar event `release.deleted` on Hooked.',
    });
  });
});
