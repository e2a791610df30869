import { Command } from 'commander';
import { ApiClient, ApiError, NetworkError } from './api-client';
import { isNonInteractive } from './ci-environment';
import { inCommandTerms } from './command-terms';
import { configPath, resolveConnection } from './config';

/** Exit codes a script can branch on. */
export const EXIT = {
  ok: 0,
  /** The server refused, or could not be reached. */
  failed: 1,
  /** A flag or argument is wrong; nothing was sent. */
  usage: 2,
  /** Not logged in: no server URL or token. */
  noCredentials: 3,
  /** `version-exists`: the build is not there. */
  notFound: 4,
} as const;

/** What each exit code means: every command's --help ends with this list, and the docs repeat it. */
const EXIT_MEANINGS: readonly [number, string][] = [
  [EXIT.ok, 'done'],
  [EXIT.failed, 'the server refused, could not be reached, or anything else went wrong'],
  [EXIT.usage, 'a flag or argument is wrong (usage error): nothing was sent'],
  [EXIT.noCredentials, 'not logged in: no server URL or token'],
  [EXIT.notFound, 'version-exists only: the build is not there'],
];

export function exitStatusHelp(): string {
  return `\nExit status:\n${EXIT_MEANINGS.map(([code, meaning]) => `  ${code}  ${meaning}`).join('\n')}`;
}

/** A failure whose message is for the user as is, with the exit code it means. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
  ) {
    super(message);
  }
}

export interface GlobalFlags {
  url?: string;
  token?: string;
}

export function globalFlags(command: Command): GlobalFlags {
  return command.optsWithGlobals() as GlobalFlags;
}

export const stderrLine = (text: string) => process.stderr.write(`${text}\n`);

/** Progress and notes are for people; in CI they are plain lines. */
export const interactiveStderr = () => !isNonInteractive(process.env, process.stderr);

export function apiClientFor(command: Command, needToken = true): ApiClient {
  const connection = resolveConnection(globalFlags(command));
  if (!connection.url) throw new CliError(`no Hangar server: run \`hangar login\`, or set HANGAR_URL (config: ${configPath()})`, EXIT.noCredentials);
  if (needToken && !connection.token) throw new CliError(`no token: run \`hangar login\`, or set HANGAR_TOKEN (config: ${configPath()})`, EXIT.noCredentials);
  return new ApiClient({
    baseUrl: connection.url,
    token: connection.token,
    userAgent: `hangar-cli/${cliVersion()}`,
    onRetry: (attempt, delay, reason) => stderrLine(`hangar: ${reason}; retrying in ${(delay / 1000).toFixed(1)} s (attempt ${attempt})`),
  });
}

export function cliVersion(): string {
  try {
    return (require('../package.json') as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** Runs a command's action and turns what it throws into a message on stderr and an exit code. */
export function action<A extends unknown[]>(run: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await run(...args);
    } catch (err) {
      // commander hands every action its Command last: the flags a server's message is put in.
      const command = args.at(-1) instanceof Command ? (args.at(-1) as Command) : undefined;
      process.exitCode = reportError(err, command);
    }
  };
}

export function reportError(err: unknown, command?: Command): number {
  if (err instanceof ApiError) {
    stderrLine(`hangar: ${inCommandTerms(err.describe(), command)}`);
    return EXIT.failed;
  }
  if (err instanceof CliError) {
    stderrLine(`hangar: ${err.message}`);
    return err.exitCode;
  }
  if (err instanceof NetworkError) {
    stderrLine(`hangar: ${err.message}`);
    return EXIT.failed;
  }
  stderrLine(`hangar: ${err instanceof Error ? err.message : String(err)}`);
  return EXIT.failed;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
