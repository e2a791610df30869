import type { APIEmbed, RESTPostAPIWebhookWithTokenJSONBody } from 'discord-api-types/v10';
import { ChatFacts, trimText } from './facts';

/**
 * Discord's documented embed limits (discord.com/developers/docs/resources/message#embed-object-embed-limits):
 * title 256, description 4096, 25 fields of name 256 and value 1024, footer
 * 2048, all of an embed's text 6000; `content` 2000. A webhook without an
 * application cannot carry link buttons, so the install link is the title's.
 */
export const DISCORD_LIMITS = { title: 256, description: 4096, fields: 25, fieldName: 256, fieldValue: 1024, footer: 2048, embedTotal: 6000, content: 2000 } as const;

/** Hangar's blue, as the embed's side bar. */
const COLOR = 0x2563eb;

export function discordMessage(facts: ChatFacts): RESTPostAPIWebhookWithTokenJSONBody {
  if (facts.kind === 'notice') {
    return { username: 'Hangar', embeds: [{ title: trimText(facts.title, DISCORD_LIMITS.title), description: trimText(facts.text, DISCORD_LIMITS.description), color: COLOR }] };
  }
  const fields = [
    { name: 'Version', value: facts.version, inline: true },
    { name: 'Channel', value: facts.channel || '—', inline: true },
    ...(facts.platform ? [{ name: 'Platform', value: facts.platform, inline: true }] : []),
    ...(facts.source ? [{ name: 'Source', value: facts.source, inline: false }] : []),
    ...(facts.pageUrl ? [{ name: 'Install', value: `[Open the install page](${facts.pageUrl})`, inline: false }] : []),
  ].map((f) => ({ ...f, name: trimText(f.name, DISCORD_LIMITS.fieldName), value: trimText(f.value, DISCORD_LIMITS.fieldValue) }));
  const title = trimText(`New build: ${facts.appName} ${facts.version}`, DISCORD_LIMITS.title);
  const footer = trimText(`Hangar ${facts.number}`.trim(), DISCORD_LIMITS.footer);
  // What the other texts leave of the 6000 an embed may hold, within the description's own 4096.
  const others = title.length + footer.length + fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
  const room = Math.min(DISCORD_LIMITS.description, DISCORD_LIMITS.embedTotal - others);
  const embed: APIEmbed = {
    title,
    ...(facts.pageUrl ? { url: facts.pageUrl } : {}),
    ...(facts.notes ? { description: trimText(facts.notes, room) } : {}),
    color: COLOR,
    fields: fields.slice(0, DISCORD_LIMITS.fields),
    footer: { text: footer },
  };
  return { username: 'Hangar', embeds: [embed] };
}
