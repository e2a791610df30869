// Loaded on first use: every test file imports @hangar/testing, and jest evaluates its modules
// once per file — a 2.8 MB bundle there would cost each of them, not only the chat tests.
let adaptiveCards: typeof import('adaptivecards') | undefined;
// The UMD bundle at run time: the package's ES build imports its own files without extensions, which Node cannot load.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadAdaptiveCards = () => (adaptiveCards ??= require('adaptivecards/dist/adaptivecards.js') as typeof import('adaptivecards'));

/**
 * What each chat platform accepts, checked apart from the code that builds
 * the messages (services/webhooks/src/domain/chat/): the limits are copied
 * here from the platforms' documentation, and a Teams card is parsed and
 * validated by the Adaptive Cards library Microsoft publishes. Each check
 * answers its problems; none means the platform would take the message.
 */

const isHttpUrl = (value: unknown) => typeof value === 'string' && /^https?:\/\/[^\s]+$/i.test(value) && value.length <= 3000;
const over = (what: string, text: unknown, max: number) => (typeof text === 'string' && text.length > max ? [`${what} is ${text.length} characters, over ${max}`] : []);
const bytesOver = (what: string, text: unknown, max: number) => (typeof text === 'string' && Buffer.byteLength(text, 'utf8') > max ? [`${what} is ${Buffer.byteLength(text, 'utf8')} bytes, over ${max}`] : []);
const missing = (what: string, value: unknown) => (typeof value === 'string' && value.length > 0 ? [] : [`${what} is missing`]);

type Json = Record<string, any>;

/** Block Kit in an incoming webhook (api.slack.com/reference/block-kit/blocks). */
export function slackMessageProblems(message: Json): string[] {
  const problems: string[] = [...missing('text (the notification fallback)', message.text)];
  const blocks = message.blocks as Json[] | undefined;
  if (!Array.isArray(blocks) || blocks.length === 0) return [...problems, 'blocks are missing'];
  if (blocks.length > 50) problems.push(`${blocks.length} blocks, over 50`);
  const textObject = (where: string, text: Json | undefined, max: number, types = ['plain_text', 'mrkdwn']) => {
    if (!text || !types.includes(text.type)) return [`${where} needs a text object of type ${types.join(' or ')}`];
    return [...missing(`${where} text`, text.text), ...over(`${where} text`, text.text, max)];
  };
  blocks.forEach((block, i) => {
    const at = `blocks[${i}] (${block.type})`;
    if (block.block_id !== undefined) problems.push(...over(`${at} block_id`, block.block_id, 255));
    switch (block.type) {
      case 'header':
        problems.push(...textObject(at, block.text, 150, ['plain_text']));
        break;
      case 'section':
        if (!block.text && !block.fields) problems.push(`${at} needs text or fields`);
        if (block.text) problems.push(...textObject(at, block.text, 3000));
        if (block.fields) {
          if (block.fields.length > 10) problems.push(`${at} has ${block.fields.length} fields, over 10`);
          (block.fields as Json[]).forEach((f, j) => problems.push(...textObject(`${at} fields[${j}]`, f, 2000)));
        }
        break;
      case 'actions':
        if (!Array.isArray(block.elements) || block.elements.length === 0 || block.elements.length > 25) problems.push(`${at} needs 1 to 25 elements`);
        for (const el of block.elements ?? []) {
          if (el.type !== 'button') continue;
          problems.push(...textObject(`${at} button`, el.text, 75, ['plain_text']));
          if (el.url !== undefined && !isHttpUrl(el.url)) problems.push(`${at} button url ${el.url} is not an http(s) URL of at most 3000 characters`);
          if (el.style !== undefined && !['primary', 'danger'].includes(el.style)) problems.push(`${at} button style ${el.style} is not primary or danger`);
          problems.push(...over(`${at} action_id`, el.action_id, 255));
        }
        break;
      case 'context':
        if (!Array.isArray(block.elements) || block.elements.length === 0 || block.elements.length > 10) problems.push(`${at} needs 1 to 10 elements`);
        for (const el of block.elements ?? []) problems.push(...textObject(`${at} element`, el, 3000));
        break;
      case 'divider':
        break;
      default:
        problems.push(`${at} is not a block type this check knows`);
    }
  });
  return problems;
}

/** Embeds through an execute-webhook call (discord.com/developers/docs/resources/message#embed-object-embed-limits). */
export function discordMessageProblems(message: Json): string[] {
  const problems = [...over('content', message.content, 2000), ...over('username', message.username, 80)];
  const embeds = message.embeds as Json[] | undefined;
  if (!message.content && (!Array.isArray(embeds) || embeds.length === 0)) problems.push('neither content nor embeds');
  if (Array.isArray(embeds) && embeds.length > 10) problems.push(`${embeds.length} embeds, over 10`);
  let total = 0;
  (embeds ?? []).forEach((embed, i) => {
    const at = `embeds[${i}]`;
    problems.push(...over(`${at} title`, embed.title, 256), ...over(`${at} description`, embed.description, 4096), ...over(`${at} footer`, embed.footer?.text, 2048));
    if (embed.url !== undefined && !isHttpUrl(embed.url)) problems.push(`${at} url ${embed.url} is not an http(s) URL`);
    if (embed.color !== undefined && !(Number.isInteger(embed.color) && embed.color >= 0 && embed.color <= 0xffffff)) problems.push(`${at} color ${embed.color} is not a 24-bit integer`);
    const fields = (embed.fields ?? []) as Json[];
    if (fields.length > 25) problems.push(`${at} has ${fields.length} fields, over 25`);
    fields.forEach((f, j) => problems.push(...missing(`${at} fields[${j}] name`, f.name), ...missing(`${at} fields[${j}] value`, f.value), ...over(`${at} fields[${j}] name`, f.name, 256), ...over(`${at} fields[${j}] value`, f.value, 1024)));
    total += [embed.title, embed.description, embed.footer?.text, embed.author?.name, ...fields.flatMap((f) => [f.name, f.value])].reduce((n, t) => n + (typeof t === 'string' ? t.length : 0), 0);
  });
  if (total > 6000) problems.push(`the embeds hold ${total} characters, over 6000`);
  return problems;
}

/**
 * A Workflows webhook's message with one Adaptive Card: the card is parsed by
 * the `adaptivecards` library (unknown element types, bad values) and its
 * properties validated (required ones missing), as a Teams client would.
 */
export function teamsMessageProblems(message: Json, maxVersion = '1.5'): string[] {
  if (message.type !== 'message') return ['type is not "message"'];
  const attachments = message.attachments as Json[] | undefined;
  if (!Array.isArray(attachments) || attachments.length !== 1) return ['needs exactly one attachment'];
  const [attachment] = attachments;
  if (attachment!.contentType !== 'application/vnd.microsoft.card.adaptive') return [`contentType ${attachment!.contentType} is not an Adaptive Card`];
  return adaptiveCardProblems(attachment!.content, maxVersion);
}

export function adaptiveCardProblems(card: Json, maxVersion = '1.5'): string[] {
  const problems: string[] = [];
  if (card?.type !== 'AdaptiveCard') return ['content.type is not AdaptiveCard'];
  const AdaptiveCards = loadAdaptiveCards();
  const version = AdaptiveCards.Version.parse(card.version, new AdaptiveCards.SerializationContext());
  const max = AdaptiveCards.Version.parse(maxVersion, new AdaptiveCards.SerializationContext());
  if (!version?.isValid || version.compareTo(max!) > 0) problems.push(`version ${card.version} is not a valid version up to ${maxVersion}`);
  const parsed = new AdaptiveCards.AdaptiveCard();
  const context = new AdaptiveCards.SerializationContext(max);
  parsed.parse(card, context);
  for (let i = 0; i < context.eventCount; i += 1) problems.push(`parse: ${context.getEventAt(i)!.message}`);
  for (const event of parsed.validateProperties().validationEvents) problems.push(`validate: ${event.message}`);
  if (Buffer.byteLength(JSON.stringify(card), 'utf8') > 28 * 1024) problems.push('the card is over the 28 KB of a Teams message');
  return problems;
}

/** A Feishu / Lark custom bot's interactive card (open.feishu.cn, custom bot: request body at most 20 KB). */
export function feishuMessageProblems(message: Json): string[] {
  const problems = bytesOver('the body', JSON.stringify(message), 20 * 1024);
  if (message.msg_type !== 'interactive') return [...problems, 'msg_type is not interactive'];
  const card = message.card as Json | undefined;
  if (card?.header?.title?.tag !== 'plain_text' || !card.header.title.content) problems.push('card.header.title needs plain_text content');
  if (!Array.isArray(card?.elements) || card.elements.length === 0) return [...problems, 'card.elements are missing'];
  for (const [i, el] of (card.elements as Json[]).entries()) {
    if (!['div', 'hr', 'action', 'note', 'markdown', 'img'].includes(el.tag)) problems.push(`elements[${i}] tag ${el.tag} is not a card element`);
    for (const button of el.tag === 'action' ? (el.actions as Json[]) : []) if (!isHttpUrl(button.url)) problems.push(`elements[${i}] button url ${button.url} is not http(s)`);
  }
  return problems;
}

/** A DingTalk custom robot's markdown or actionCard message (open.dingtalk.com, custom robot: at most 20,000 bytes). */
export function dingtalkMessageProblems(message: Json): string[] {
  const problems = bytesOver('the body', JSON.stringify(message), 20_000);
  if (message.msgtype === 'markdown') return [...problems, ...missing('markdown.title', message.markdown?.title), ...missing('markdown.text', message.markdown?.text)];
  if (message.msgtype === 'actionCard') {
    const card = message.actionCard as Json;
    return [...problems, ...missing('actionCard.title', card?.title), ...missing('actionCard.text', card?.text), ...missing('actionCard.singleTitle', card?.singleTitle), ...(isHttpUrl(card?.singleURL) ? [] : ['actionCard.singleURL is not http(s)'])];
  }
  return [...problems, `msgtype ${message.msgtype} is not markdown or actionCard`];
}

/** A WeCom group robot's markdown message (developer.work.weixin.qq.com, group robot: content at most 4096 bytes). */
export function wecomMessageProblems(message: Json): string[] {
  if (message.msgtype !== 'markdown') return [`msgtype ${message.msgtype} is not markdown`];
  return [...missing('markdown.content', message.markdown?.content), ...bytesOver('markdown.content', message.markdown?.content, 4096)];
}

/** The check of a webhook format's body; undefined for `generic` (Hangar's own JSON). */
export const CHAT_MESSAGE_CHECKS: Record<string, (message: Json) => string[]> = {
  slack: slackMessageProblems,
  teams: (message) => teamsMessageProblems(message),
  discord: discordMessageProblems,
  feishu: feishuMessageProblems,
  dingtalk: dingtalkMessageProblems,
  wecom: wecomMessageProblems,
};
