import type { Command } from 'commander';

/**
 * The server's message in the command's own words: the gateway names its API fields
 * (`release_version`, `channel_key`), which a person at the command line gives as flags
 * (`--release-version`, `--channel-key`). Only fields the command has a flag for are renamed, and
 * only names with an underscore: a one-word field (`name`, `password`) is also a plain word.
 */
export function inCommandTerms(text: string, command: Command | undefined): string {
  if (!command) return text;
  const flagOf = new Map<string, string>();
  for (const option of command.options) {
    if (option.long?.includes('-', 2)) flagOf.set(option.long.slice(2).replace(/-/g, '_'), option.long);
  }
  if (flagOf.size === 0) return text;
  const names = new RegExp(`(?<![\\w-])(${[...flagOf.keys()].join('|')})(?![\\w-])`, 'g');
  return text.replace(names, (field) => flagOf.get(field)!);
}
