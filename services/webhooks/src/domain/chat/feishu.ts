import { ChatFacts, trimBytes } from './facts';

/**
 * A Feishu / Lark custom bot's interactive card (open.feishu.cn "custom bot":
 * `msg_type: interactive`). Feishu publishes no package of types, so these
 * are its documented fields; a request body may be at most 20 KB, so the
 * notes are held to 8 KB.
 */
export const FEISHU_LIMITS = { body: 20 * 1024, notes: 8 * 1024 } as const;

type PlainText = { tag: 'plain_text'; content: string };
type Element =
  | { tag: 'div'; text: { tag: 'lark_md'; content: string } }
  | { tag: 'hr' }
  | { tag: 'action'; actions: { tag: 'button'; text: PlainText; type: 'primary' | 'default'; url: string }[] }
  | { tag: 'note'; elements: PlainText[] };

export interface FeishuMessage {
  msg_type: 'interactive';
  card: { config: { wide_screen_mode: true }; header: { title: PlainText; template: 'blue' }; elements: Element[] };
}

export function feishuMessage(facts: ChatFacts): FeishuMessage {
  const card = (title: string, elements: Element[]): FeishuMessage => ({
    msg_type: 'interactive',
    card: { config: { wide_screen_mode: true }, header: { title: { tag: 'plain_text', content: trimBytes(title, 512) }, template: 'blue' }, elements },
  });
  if (facts.kind === 'notice') return card(facts.title, [{ tag: 'div', text: { tag: 'lark_md', content: facts.text } }]);
  const lines = [`**Version:** ${facts.version}`, `**Channel:** ${facts.channel || '—'}`, ...(facts.platform ? [`**Platform:** ${facts.platform}`] : []), ...(facts.source ? [`**Source:** ${facts.source}`] : [])];
  const elements: Element[] = [{ tag: 'div', text: { tag: 'lark_md', content: lines.join('\n') } }];
  if (facts.notes) elements.push({ tag: 'hr' }, { tag: 'div', text: { tag: 'lark_md', content: trimBytes(`**Release notes**\n${facts.notes}`, FEISHU_LIMITS.notes) } });
  if (facts.pageUrl) elements.push({ tag: 'action', actions: [{ tag: 'button', text: { tag: 'plain_text', content: 'Install' }, type: 'primary', url: facts.pageUrl }] });
  elements.push({ tag: 'note', elements: [{ tag: 'plain_text', content: `Hangar ${facts.number}`.trim() }] });
  return card(`New build: ${facts.appName} ${facts.version}`, elements);
}
