import type { IAdaptiveCard, IFactSet, IOpenUrlAction, ITextBlock } from 'adaptivecards/lib/schema';
import { ChatFacts, trimText } from './facts';

/**
 * Teams takes a message of at most about 28 KB; the notes are held well below
 * it. Version 1.4 is what a Workflows webhook renders everywhere Teams runs
 * (desktop, web, mobile).
 */
export const TEAMS_LIMITS = { notes: 4000, title: 200 } as const;
export const ADAPTIVE_CARD_VERSION = '1.4';
export const ADAPTIVE_CARD_SCHEMA = 'http://adaptivecards.io/schemas/adaptive-card.json';

/**
 * The body a Workflows "When a Teams webhook request is received" flow posts
 * as a card: one message with the Adaptive Card as its attachment. (Office
 * 365 connectors, which took MessageCards, are retired.)
 */
export interface TeamsMessage {
  type: 'message';
  attachments: { contentType: 'application/vnd.microsoft.card.adaptive'; contentUrl: null; content: IAdaptiveCard & { $schema: string } }[];
}

export function teamsCard(facts: ChatFacts): IAdaptiveCard & { $schema: string } {
  const heading = (text: string): ITextBlock => ({ type: 'TextBlock', text: trimText(text, TEAMS_LIMITS.title), size: 'large', weight: 'bolder', wrap: true });
  const card = { $schema: ADAPTIVE_CARD_SCHEMA, type: 'AdaptiveCard' as const, version: ADAPTIVE_CARD_VERSION };
  if (facts.kind === 'notice') {
    return { ...card, body: [heading(facts.title), { type: 'TextBlock', text: facts.text, wrap: true }] };
  }
  const facts_: IFactSet = {
    type: 'FactSet',
    facts: [
      { title: 'Version', value: facts.version },
      { title: 'Channel', value: facts.channel || '—' },
      ...(facts.platform ? [{ title: 'Platform', value: facts.platform }] : []),
      ...(facts.source ? [{ title: 'Source', value: facts.source }] : []),
    ],
  };
  const body: (ITextBlock | IFactSet)[] = [
    heading(`New build: ${facts.appName} ${facts.version}`),
    facts_,
  ];
  if (facts.notes) {
    body.push({ type: 'TextBlock', text: 'Release notes', weight: 'bolder', spacing: 'medium' });
    body.push({ type: 'TextBlock', text: trimText(facts.notes, TEAMS_LIMITS.notes), wrap: true });
  }
  body.push({ type: 'TextBlock', text: `Hangar ${facts.number}`.trim(), isSubtle: true, size: 'small', spacing: 'medium' });
  const actions: IOpenUrlAction[] = facts.pageUrl ? [{ type: 'Action.OpenUrl', id: 'install', title: 'Install', style: 'positive', url: facts.pageUrl }] : [];
  return { ...card, body, ...(actions.length ? { actions } : {}) };
}

export function teamsMessage(facts: ChatFacts): TeamsMessage {
  return { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: teamsCard(facts) }] };
}
