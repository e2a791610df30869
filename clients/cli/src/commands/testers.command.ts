import fs from 'node:fs';
import { Command } from 'commander';
import type { ChannelTesterDevices, TesterGroup, TestersAdded } from '../api-types';
import type { ApiClient } from '../api-client';
import { CliError, EXIT, action, apiClientFor, printJson } from '../command-context';
import { table } from './releases.command';

interface AppFlags {
  app: string;
  json?: boolean;
}

interface AddFlags extends AppFlags {
  group: string;
  file?: string;
}

function appId(flags: AppFlags): string {
  if (!/^[1-9]\d*$/.test(flags.app)) throw new CliError('--app must be an app id (a whole number above 0)', EXIT.usage);
  return flags.app;
}

/** A group by its id or its name (case ignored), among the app's. */
async function groupOf(api: ApiClient, app: string, wanted: string): Promise<TesterGroup> {
  const groups = await api.get<TesterGroup[]>(`/api/apps/${app}/tester_groups`);
  const found = groups.find((g) => String(g.id) === wanted || g.name.toLowerCase() === wanted.toLowerCase());
  if (!found) throw new CliError(`app ${app} has no tester group '${wanted}' (its groups: ${groups.map((g) => g.name).join(', ') || 'none'})`, EXIT.usage);
  return found;
}

function list(): Command {
  return new Command('list')
    .summary("an app's tester groups and each tester's state")
    .requiredOption('--app <id>', 'the app')
    .option('--json', "print the server's answer as JSON")
    .action(
      action(async (flags: AppFlags, cmd: Command) => {
        const api = apiClientFor(cmd);
        const groups = await api.get<TesterGroup[]>(`/api/apps/${appId(flags)}/tester_groups`);
        if (flags.json) return printJson(groups);
        if (!groups.length) return void process.stdout.write(`app ${flags.app} has no tester groups\n`);
        for (const g of groups) {
          process.stdout.write(`${g.name} (group ${g.id}): ${g.testers.length} tester${g.testers.length === 1 ? '' : 's'}, channels ${g.channel_ids.join(', ') || 'none'}\n`);
          if (!g.testers.length) continue;
          const rows = [['ID', 'EMAIL', 'STATE', 'LAST DOWNLOAD']];
          for (const t of g.testers) rows.push([String(t.id), t.email, t.state, t.last_download ? `build ${t.last_download.release_id} at ${t.last_download.at}` : '-']);
          process.stdout.write(`${table(rows)}\n`);
        }
      }),
    );
}

function add(): Command {
  return new Command('add')
    .summary('invite testers by e-mail into a group (each gets a sign-in link)')
    .argument('[emails...]', 'e-mail addresses')
    .requiredOption('--app <id>', 'the app')
    .requiredOption('--group <id-or-name>', 'the tester group')
    .option('--file <path>', "a list or CSV export of addresses ('-': standard input)")
    .option('--json', "print the server's answer as JSON")
    .addHelpText(
      'after',
      `
Examples:
  $ hangar testers add --app 12 --group QA jane@example.com bob@example.com
  $ hangar testers add --app 12 --group QA --file testers.csv`,
    )
    .action(
      action(async (emails: string[], flags: AddFlags, cmd: Command) => {
        const app = appId(flags);
        const texts = [...emails];
        if (flags.file) texts.push(fs.readFileSync(flags.file === '-' ? 0 : flags.file, 'utf8'));
        if (!texts.some((t) => t.trim())) throw new CliError('name at least one address, or --file', EXIT.usage);
        const api = apiClientFor(cmd);
        const group = await groupOf(api, app, flags.group);
        const result = await api.postJson<TestersAdded>(`/api/apps/${app}/tester_groups/${group.id}/testers`, { emails: texts });
        if (flags.json) return printJson(result);
        process.stdout.write(`invited ${result.added.length} into ${group.name}${result.added.length ? `: ${result.added.map((t) => t.email).join(', ')}` : ''}\n`);
        if (result.already_members.length) process.stdout.write(`already in ${group.name}: ${result.already_members.join(', ')}\n`);
      }),
    );
}

interface DevicesFlags {
  channel: string;
  missing?: boolean;
  json?: boolean;
}

function devices(): Command {
  return new Command('devices')
    .summary("a channel's testers' iOS devices, and those its newest build leaves out")
    .requiredOption('--channel <id>', 'the channel')
    .option('--missing', "print only the devices the newest build leaves out, as Apple's device list file (Devices → Register Multiple Devices)")
    .option('--json', "print the server's answer as JSON")
    .addHelpText(
      'after',
      `
Examples:
  $ hangar testers devices --channel 7
  $ hangar testers devices --channel 7 --missing > devices.txt`,
    )
    .action(
      action(async (flags: DevicesFlags, cmd: Command) => {
        if (!/^[1-9]\d*$/.test(flags.channel)) throw new CliError('--channel must be a channel id (a whole number above 0)', EXIT.usage);
        const answer = await apiClientFor(cmd).get<ChannelTesterDevices>(`/api/channels/${flags.channel}/tester_devices`);
        if (flags.json) return printJson(answer);
        // The file alone on standard output, so it can be redirected and uploaded as it is.
        if (flags.missing) return void process.stdout.write(answer.apple_device_list);
        if (!answer.devices.length) return void process.stdout.write(`no tester of channel ${flags.channel} has registered a device\n`);
        const build = answer.latest_build;
        const rows = [['ID', 'NAME', 'MODEL', 'TESTER', 'UDID', 'NEWEST BUILD']];
        for (const d of answer.devices) rows.push([String(d.id), d.name, d.product || '-', d.tester_email, d.udid, d.in_latest_build ?? '-']);
        process.stdout.write(`${table(rows)}\n`);
        process.stdout.write(
          !build ? 'no build yet\n' : build.profile_lists_devices ? `build ${build.id} (${build.release_version} ${build.build_version}) leaves out ${answer.missing}; --missing prints them for Apple\n` : `build ${build.id} installs on any device\n`,
        );
      }),
    );
}

export function testersCommand(): Command {
  return new Command('testers').summary("an app's tester groups: list them, invite testers, their devices").addCommand(list()).addCommand(add()).addCommand(devices());
}
