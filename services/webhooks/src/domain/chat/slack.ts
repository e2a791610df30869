import type { KnownBlock } from '@slack/types';
import { ChatFacts, trimText } from './facts';

/**
 * Slack's documented limits (api.slack.com/reference/block-kit): a section's
 * text and a button's URL at most 3000 characters, a header 150, a button's
 * text 75, a context element 3000, at most 10 fields of 2000 and 50 blocks.
 */
export const SLACK_LIMITS = { sectionText: 3000, headerText: 150, buttonText: 75, fields: 10, fieldText: 2000, blocks: 50, contextText: 3000 } as const;

/** An incoming webhook's body: `text` is the notification's fallback, `blocks` what the channel shows. */
export interface SlackMessage {
  text: string;
  blocks: KnownBlock[];
}

/** mrkdwn reads `&`, `<` and `>` as markup: a release note's `<` must not become a link. */
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function slackMessage(facts: ChatFacts): SlackMessage {
  if (facts.kind === 'notice') {
    return {
      text: trimText(facts.title, SLACK_LIMITS.sectionText),
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: trimText(`*${escape(facts.title)}*\n${escape(facts.text)}`, SLACK_LIMITS.sectionText) } }],
    };
  }
  const title = `${facts.appName} ${facts.version}`;
  const fields = [
    `*Version*\n${facts.version}`,
    `*Channel*\n${facts.channel || '—'}`,
    ...(facts.platform ? [`*Platform*\n${facts.platform}`] : []),
    ...(facts.source ? [`*Source*\n${facts.source}`] : []),
  ].map((text) => ({ type: 'mrkdwn' as const, text: trimText(escape(text), SLACK_LIMITS.fieldText) }));
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: trimText(`New build: ${title}`, SLACK_LIMITS.headerText), emoji: true } },
    { type: 'section', fields: fields.slice(0, SLACK_LIMITS.fields) },
  ];
  if (facts.notes) {
    // The heading counts towards the section's 3000 characters; escaping can lengthen the notes, so trim after it.
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: trimText(`*Release notes*\n${escape(facts.notes)}`, SLACK_LIMITS.sectionText) } });
  }
  if (facts.pageUrl) {
    blocks.push({
      type: 'actions',
      elements: [{ type: 'button', style: 'primary', text: { type: 'plain_text', text: 'Install', emoji: false }, url: facts.pageUrl, action_id: 'hangar_install' }],
    });
  }
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: trimText(`Hangar ${facts.number} · uploaded to ${escape(facts.channel || facts.appName)}`, SLACK_LIMITS.contextText) }] });
  return { text: trimText(`New build of ${title} on ${facts.channel}`, SLACK_LIMITS.sectionText), blocks };
}
