import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EXIT } from './command-context';

/** The built `hangar` command (npm test builds before the unit tier), run as a shell runs it. */
const BIN = path.join(__dirname, '..', 'bin', 'hangar.js');

describe('hangar exit codes, as --help tells them and as the command exits', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-exit-codes-'));
  // No config, no server, no CI: only what the command line says.
  const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_CACHE_HOME: path.join(home, 'cache') };
  const hangar = (...args: string[]) => {
    const run = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8', cwd: home });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  };
  const apk = path.join(home, 'app.apk');
  fs.writeFileSync(apk, 'not empty');

  afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

  it('when any command is asked for --help, then it lists every exit code, 2 being a usage error', () => {
    for (const command of [[], ['login'], ['upload'], ['version-exists'], ['releases', 'list'], ['debug-files', 'upload']]) {
      const run = hangar(...command, '--help');
      expect({ command, code: run.code }).toEqual({ command, code: 0 });
      const listed = /\nExit status:\n((?: {2}\d {2}.*\n?)+)/.exec(run.stdout)?.[1] ?? '';
      expect({ command, codes: [...listed.matchAll(/^ {2}(\d)/gm)].map((m) => Number(m[1])) }).toEqual({ command, codes: Object.values(EXIT) });
      expect(listed).toMatch(/^ {2}2 {2}a flag or argument is wrong \(usage error\)/m);
      expect(run.stdout).not.toMatch(/1 any other failure/);
    }
  });

  it('when a flag, an argument or the command is wrong, then it exits 2 whatever commander or the command itself found', () => {
    const usageErrors = [
      ['upload', apk, '--no-such-flag'],
      ['upload'],
      ['no-such-command'],
      [],
      ['upload', path.join(home, 'missing.apk')],
      ['upload', apk, '--custom-fields', 'not json'],
      ['upload', apk, '--changelog', 'x', '--changelog-from-git'],
      ['upload', apk, '--via', 'carrier-pigeon'],
      ['version-exists', '-c', 'key', '--bundle-id', 'com.example'],
      ['login', '--url', 'ftp://example.com', '--token', 'hgr_x'],
    ];
    for (const args of usageErrors) expect({ args, code: hangar(...args).code }).toEqual({ args, code: EXIT.usage });
  });

  it('when no server or token is configured, then it exits 3', () => {
    expect(hangar('upload', apk).code).toBe(EXIT.noCredentials);
  });
});
