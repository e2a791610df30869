import { Command, Option } from 'commander';
import type { VersionList } from '../api-types';
import { CliError, EXIT, action, apiClientFor, printJson } from '../command-context';

interface ListFlags {
  channelKey: string;
  page: string;
  perPage: string;
  json?: boolean;
}

/** Columns padded to their widest cell, as `gh` prints lists on a terminal. */
export function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n');
}

function list(): Command {
  return new Command('list')
    .summary("a channel's releases, newest upload first")
    .requiredOption('-c, --channel-key <key>', 'the channel')
    .addOption(new Option('--page <n>', 'page').default('1'))
    .addOption(new Option('--per-page <n>', 'releases a page').default('20'))
    .option('--json', "print the server's version list as JSON")
    .addHelpText(
      'after',
      `
Examples:
  $ hangar releases list --channel-key 8f2ab31c
  $ hangar releases list -c 8f2ab31c --json | jq -r '.releases[0].install_url'`,
    )
    .action(
      action(async (flags: ListFlags, cmd: Command) => {
        for (const [flag, value] of [['--page', flags.page], ['--per-page', flags.perPage]] as const)
          if (!/^[1-9]\d*$/.test(value)) throw new CliError(`${flag} must be a whole number above 0`, EXIT.usage);
        const api = apiClientFor(cmd, false);
        const versions = await api.get<VersionList>('/api/apps/versions', { channel_key: flags.channelKey, page: flags.page, per_page: flags.perPage });
        if (flags.json) return printJson(versions);
        const releases = versions.releases ?? [];
        process.stdout.write(`${versions.app_name ?? ''} / ${versions.channel?.name ?? flags.channelKey}: ${releases.length} release${releases.length === 1 ? '' : 's'} on page ${flags.page}\n`);
        if (!releases.length) return;
        const rows = [['ID', 'VERSION', 'BUILD', 'BRANCH', 'COMMIT', 'UPLOADED']];
        for (const r of releases) rows.push([String(r.id), r.release_version ?? '', r.build_version ?? '', r.branch ?? '', (r.git_commit ?? '').slice(0, 8), r.created_at ?? '']);
        process.stdout.write(`${table(rows)}\n`);
      }),
    );
}

export function releasesCommand(): Command {
  return new Command('releases').summary("a channel's builds").addCommand(list());
}
