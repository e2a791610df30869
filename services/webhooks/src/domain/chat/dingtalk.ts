import { ChatFacts, trimBytes } from './facts';

/**
 * A DingTalk custom robot's message (open.dingtalk.com "custom robot"):
 * `actionCard` with one button when there is an install link, `markdown`
 * otherwise. DingTalk publishes no package of types, so these are its
 * documented fields; a message may be at most 20,000 bytes, so the notes are
 * held to 8 KB. Every text contains "Hangar", for robots guarded by a keyword.
 */
export const DINGTALK_LIMITS = { body: 20_000, notes: 8 * 1024 } as const;

export type DingTalkMessage =
  | { msgtype: 'markdown'; markdown: { title: string; text: string } }
  | { msgtype: 'actionCard'; actionCard: { title: string; text: string; btnOrientation: '0'; singleTitle: string; singleURL: string } };

export function dingtalkMessage(facts: ChatFacts): DingTalkMessage {
  if (facts.kind === 'notice') return { msgtype: 'markdown', markdown: { title: facts.title, text: `### ${facts.title}\n\n${facts.text}` } };
  const title = `New build: ${facts.appName} ${facts.version}`;
  const text = [
    `### ${title}`,
    `**Version:** ${facts.version}  `,
    `**Channel:** ${facts.channel || '—'}  `,
    ...(facts.platform ? [`**Platform:** ${facts.platform}  `] : []),
    ...(facts.source ? [`**Source:** ${facts.source}  `] : []),
    ...(facts.notes ? ['', trimBytes(`**Release notes**\n\n${facts.notes}`, DINGTALK_LIMITS.notes)] : []),
    '',
    `Hangar ${facts.number}`.trim(),
  ].join('\n');
  if (!facts.pageUrl) return { msgtype: 'markdown', markdown: { title, text } };
  return { msgtype: 'actionCard', actionCard: { title, text, btnOrientation: '0', singleTitle: 'Install', singleURL: facts.pageUrl } };
}
