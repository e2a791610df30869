import { Command } from 'commander';
import { ApiError } from '../api-client';
import { CliError, EXIT, action, apiClientFor, printJson } from '../command-context';
import type { Release } from '../api-types';

interface VersionExistsFlags {
  channelKey: string;
  bundleId: string;
  releaseVersion?: string;
  buildVersion?: string;
  gitCommit?: string;
  json?: boolean;
}

export function versionExistsCommand(): Command {
  return new Command('version-exists')
    .summary('whether a build is already on a channel (exit 0: yes, 4: no)')
    .description('Asks whether a channel has a build, by versions or by commit: a CI job can skip uploading it twice. Exits 0 when it exists, 4 when it does not (every code: below).')
    .requiredOption('-c, --channel-key <key>', 'the channel')
    .requiredOption('--bundle-id <id>', 'the package id')
    .option('--release-version <version>', 'with --build-version')
    .option('--build-version <build>', 'with --release-version')
    .option('--git-commit <sha>', 'instead of the versions')
    .option('--json', 'print the release as JSON when it exists')
    .addHelpText(
      'after',
      `
Examples:
  $ hangar version-exists -c 8f2ab31c --bundle-id com.example.app --release-version 1.4.0 --build-version 112
  $ hangar version-exists -c 8f2ab31c --bundle-id com.example.app --git-commit "$(git rev-parse HEAD)" || hangar upload app.apk -c 8f2ab31c`,
    )
    .action(
      action(async (flags: VersionExistsFlags, cmd: Command) => {
        const byVersion = flags.releaseVersion !== undefined && flags.buildVersion !== undefined;
        if (!byVersion && !flags.gitCommit) throw new CliError('give --release-version and --build-version, or --git-commit', EXIT.usage);
        const api = apiClientFor(cmd, false);
        try {
          const release = await api.get<Release>('/api/apps/version_exist', {
            channel_key: flags.channelKey,
            bundle_id: flags.bundleId,
            release_version: flags.releaseVersion,
            build_version: flags.buildVersion,
            git_commit: flags.gitCommit,
          });
          if (flags.json) printJson(release);
          else process.stdout.write(`exists: release ${release.id}, ${release.release_version ?? ''} (${release.build_version ?? ''})\n`);
        } catch (err) {
          if (err instanceof ApiError && err.status === 404) throw new CliError(`not found: ${err.message}`, EXIT.notFound);
          throw err;
        }
      }),
    );
}
