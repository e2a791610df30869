import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '@hangar/infra';

/** The built `hangar` command, run as a user's shell runs it: its own process, its own home dirs. */
export const HANGAR_BIN = path.join(REPO_ROOT, 'clients', 'cli', 'bin', 'hangar.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliHome {
  /** XDG_CONFIG_HOME and XDG_CACHE_HOME under one temporary folder. */
  env: NodeJS.ProcessEnv;
  configFile: string;
  cacheDir: string;
  remove(): void;
}

export function cliHome(): CliHome {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-cli-home-'));
  const env = { XDG_CONFIG_HOME: path.join(root, 'config'), XDG_CACHE_HOME: path.join(root, 'cache') };
  return { env, configFile: path.join(env.XDG_CONFIG_HOME, 'hangar', 'config.json'), cacheDir: path.join(env.XDG_CACHE_HOME, 'hangar'), remove: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** The test process's environment without anything that would make the CLI think it runs in some CI. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(HANGAR_(URL|TOKEN)|GITHUB_|GITLAB_|CI_|CIRCLE|BITRISE|JENKINS_|BUILD_|SYSTEM_|TF_BUILD|GIT_)/.test(name)) delete env[name];
  }
  return env;
}

export function startCli(args: string[], env: NodeJS.ProcessEnv, options: { cwd?: string; stdin?: string } = {}): { child: ChildProcess; result: Promise<CliResult>; stderrSoFar(): string } {
  const child = spawn(process.execPath, [HANGAR_BIN, ...args], { cwd: options.cwd ?? REPO_ROOT, env: { ...cleanEnv(), ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin!.end(options.stdin ?? '');
  const result = new Promise<CliResult>((resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, result, stderrSoFar: () => stderr };
}

export function runCli(args: string[], env: NodeJS.ProcessEnv, options: { cwd?: string; stdin?: string } = {}): Promise<CliResult> {
  return startCli(args, env, options).result;
}
