import { dingtalkMessage } from './dingtalk';
import { discordMessage } from './discord';
import { factsOf } from './facts';
import { feishuMessage } from './feishu';
import { slackMessage } from './slack';
import { teamsMessage } from './teams';
import { wecomMessage } from './wecom';

/**
 * What a webhook's body looks like: `generic` is Hangar's own signed JSON
 * (docs/events.md); the others are the message a chat platform's incoming
 * webhook posts into a channel, made from the same frozen payload.
 */
export const WEBHOOK_FORMATS = ['generic', 'slack', 'teams', 'discord', 'feishu', 'dingtalk', 'wecom'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export const isWebhookFormat = (value: string): value is WebhookFormat => (WEBHOOK_FORMATS as readonly string[]).includes(value);

const PRESETS: Record<Exclude<WebhookFormat, 'generic'>, (facts: ReturnType<typeof factsOf>) => unknown> = {
  slack: slackMessage,
  teams: teamsMessage,
  discord: discordMessage,
  feishu: feishuMessage,
  dingtalk: dingtalkMessage,
  wecom: wecomMessage,
};

/** The chat message for one delivery's event and frozen payload, as JSON. */
export function chatBody(format: Exclude<WebhookFormat, 'generic'>, event: string, payloadJson: string): string {
  return JSON.stringify(PRESETS[format](factsOf(event, payloadJson)));
}
