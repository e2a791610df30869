import { Command, CommanderError } from 'commander';
import { EXIT, cliVersion, exitStatusHelp } from './command-context';
import { debugFilesCommand } from './commands/debug-files.command';
import { loginCommand } from './commands/login.command';
import { releasesCommand } from './commands/releases.command';
import { testersCommand } from './commands/testers.command';
import { uploadCommand } from './commands/upload.command';
import { versionExistsCommand } from './commands/version-exists.command';

/** Every usage error exits 2, and every command's --help ends with what each exit code means. */
function strict(command: Command): Command {
  command.exitOverride().showHelpAfterError('(run with --help for usage and examples)').addHelpText('after', exitStatusHelp());
  for (const sub of command.commands) strict(sub);
  return command;
}

export function buildProgram(): Command {
  const program = new Command('hangar')
    .description('Upload builds and debug files to a Hangar server, from CI or a terminal.')
    .version(cliVersion(), '-V, --version')
    .option('--url <url>', 'the Hangar server (else HANGAR_URL, else `hangar login`)')
    .option('--token <token>', 'an API token (else HANGAR_TOKEN, else `hangar login`)')
    .addCommand(loginCommand())
    .addCommand(uploadCommand())
    .addCommand(versionExistsCommand())
    .addCommand(releasesCommand())
    .addCommand(debugFilesCommand())
    .addCommand(testersCommand())
    .addHelpText(
      'after',
      `
Examples:
  $ hangar login --url https://hangar.example.com --with-token < token.txt
  $ HANGAR_URL=https://hangar.example.com HANGAR_TOKEN=$TOKEN hangar upload app.apk --channel-key 8f2ab31c
  $ hangar <command> --help`,
    );
  return strict(program);
}

export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end here too, with their own code 0; anything else commander refuses
      // (an unknown flag or command, a missing argument, no command at all) is a usage error.
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    throw err;
  }
  return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
}
