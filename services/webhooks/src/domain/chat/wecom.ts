import { ChatFacts, trimBytes } from './facts';

/**
 * A WeCom (WeChat Work) group robot's markdown message
 * (developer.work.weixin.qq.com "group robot"): `content` at most 4096 UTF-8
 * bytes. WeCom publishes no package of types, so these are its documented
 * fields; links are markdown links (a robot message has no buttons).
 */
export const WECOM_LIMITS = { content: 4096 } as const;

export interface WeComMessage {
  msgtype: 'markdown';
  markdown: { content: string };
}

export function wecomMessage(facts: ChatFacts): WeComMessage {
  if (facts.kind === 'notice') return { msgtype: 'markdown', markdown: { content: trimBytes(`### ${facts.title}\n${facts.text}`, WECOM_LIMITS.content) } };
  const head = [
    `### New build: ${facts.appName} ${facts.version}`,
    `> Version: <font color="info">${facts.version}</font>`,
    `> Channel: ${facts.channel || '—'}`,
    ...(facts.platform ? [`> Platform: ${facts.platform}`] : []),
    ...(facts.source ? [`> Source: ${facts.source}`] : []),
  ].join('\n');
  const tail = [facts.pageUrl ? `[Install](${facts.pageUrl})` : '', `Hangar ${facts.number}`.trim()].filter(Boolean).join('\n');
  // The notes get what the head and the link leave of the 4096 bytes, so the link is never the part cut off.
  const room = WECOM_LIMITS.content - Buffer.byteLength(`${head}\n\n\n${tail}`, 'utf8');
  const notes = facts.notes && room > 32 ? `\n${trimBytes(`**Release notes**\n${facts.notes}`, room)}\n` : '';
  return { msgtype: 'markdown', markdown: { content: trimBytes(`${head}\n${notes}\n${tail}`, WECOM_LIMITS.content) } };
}
