import { Command } from 'commander';
import { CliError, EXIT, action, printJson } from '../command-context';
import type { DebugFile } from '../api-types';
import { sendAndFinish, transferOptions, type TransferFlags } from './upload.command';

interface DebugFileFlags extends TransferFlags {
  channelKey: string;
  releaseVersion?: string;
  buildVersion?: string;
}

function debugFilesUpload(): Command {
  const command = new Command('upload')
    .summary('upload a dSYM zip or an Android mapping zip')
    .description('Uploads a debug file over resumable uploads (tus), like `hangar upload` does a build.')
    .argument('<file>', 'the zip to upload')
    .requiredOption('-c, --channel-key <key>', 'the channel the build belongs to')
    .option('--release-version <version>', 'required for Android; iOS reads it from the dSYM')
    .option('--build-version <build>', 'required for Android; iOS reads it from the dSYM');
  transferOptions(command).addHelpText(
    'after',
    `
Examples:
  $ hangar debug-files upload MyApp.app.dSYM.zip --channel-key 8f2ab31c
  $ hangar debug-files upload mapping.zip -c 8f2ab31c --release-version 1.4.0 --build-version 112`,
  );
  return command.action(
    action(async (file: string, flags: DebugFileFlags, cmd: Command) => {
      if (!flags.channelKey.trim()) throw new CliError('--channel-key must not be empty', EXIT.usage);
      const fields = {
        channel_key: flags.channelKey,
        ...(flags.releaseVersion !== undefined ? { release_version: flags.releaseVersion } : {}),
        ...(flags.buildVersion !== undefined ? { build_version: flags.buildVersion } : {}),
      };
      const debugFile = await sendAndFinish(cmd, file, flags, { purpose: 'debug_file', channel_key: flags.channelKey }, (api, uploadId, sha256) =>
        api.postJson<DebugFile>('/api/debug_files/upload', { ...fields, upload_id: uploadId, sha256 }),
      );
      if (flags.json) printJson(debugFile);
      else process.stdout.write(`Uploaded debug file ${debugFile.id}: ${debugFile.device_type ?? ''} ${debugFile.release_version ?? ''} (${debugFile.build_version ?? ''})\n`);
    }),
  );
}

export function debugFilesCommand(): Command {
  return new Command('debug-files').summary('dSYM and ProGuard mapping files').addCommand(debugFilesUpload());
}
