import fs from 'node:fs';
import { Command } from 'commander';
import { ApiClient, ApiError } from '../api-client';
import type { User } from '../api-types';
import { CliError, EXIT, action, cliVersion, globalFlags, interactiveStderr, stderrLine } from '../command-context';
import { tokenThroughBrowser } from '../web-login';
import { configPath, readConfig, resolveConnection, writeConfig } from '../config';

interface LoginFlags {
  withToken?: boolean;
  status?: boolean;
  web?: boolean;
}

async function whoAmI(url: string, token: string): Promise<User> {
  const api = new ApiClient({ baseUrl: url, token, userAgent: `hangar-cli/${cliVersion()}`, retryDelaysMs: [] });
  try {
    return await api.get<User>('/api/users/me');
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) throw new CliError(`${url} does not accept this token: ${err.message}`);
    throw err;
  }
}

export function loginCommand(): Command {
  return new Command('login')
    .summary('keep the server URL and a token in your config file')
    .description(
      'Checks the token against the server, then keeps both in $XDG_CONFIG_HOME/hangar/config.json (~/.config/hangar/config.json), readable by you only (0600). HANGAR_URL and HANGAR_TOKEN override it, so CI needs no login.',
    )
    .option('--with-token', 'read the token from standard input (keeps it out of the shell history)')
    .option('--status', 'show the server and user in use, and where each setting comes from')
    .option('--web', "sign in through the browser with your organisation's identity provider (a server with single sign-on); a new token is made for this CLI")
    .addHelpText(
      'after',
      `
Examples:
  $ hangar login --url https://hangar.example.com --with-token < token.txt
  $ hangar login --url https://hangar.example.com --token hgr_XXXX
  $ hangar login --url https://hangar.example.com --web
  $ hangar login --status`,
    )
    .action(
      action(async (flags: LoginFlags, cmd: Command) => {
        const file = configPath();
        if (flags.status) {
          const connection = resolveConnection(globalFlags(cmd));
          if (!connection.url || !connection.token) throw new CliError(`not logged in (config: ${file})`, EXIT.noCredentials);
          const me = await whoAmI(connection.url, connection.token);
          process.stdout.write(`${connection.url} (from ${connection.sources.url}) as ${me.username ?? me.email ?? '?'} (token from ${connection.sources.token})\n`);
          return;
        }
        const given = globalFlags(cmd);
        const stored = readConfig(file);
        const url = (given.url ?? process.env.HANGAR_URL ?? stored.url ?? '').trim().replace(/\/+$/, '');
        if (!url) throw new CliError('give the server with --url https://hangar.example.com', EXIT.usage);
        if (!/^https?:\/\//.test(url)) throw new CliError(`--url must start with http:// or https://, not ${JSON.stringify(url)}`, EXIT.usage);
        let token = given.token?.trim();
        if (flags.withToken) token = fs.readFileSync(0, 'utf8').trim();
        if (flags.web) {
          if (token) throw new CliError('--web makes its own token: leave out --token and --with-token', EXIT.usage);
          token = await tokenThroughBrowser(url, `hangar-cli/${cliVersion()}`, stderrLine, interactiveStderr());
        }
        if (!token) throw new CliError('give the token with --token or --with-token (standard input); create one in your Hangar account settings', EXIT.usage);
        const me = await whoAmI(url, token);
        writeConfig(file, { url, token });
        stderrLine(`Logged in to ${url} as ${me.username ?? me.email ?? '?'}; saved in ${file}`);
      }),
    );
}
