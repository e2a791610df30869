import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { freePort } from '@hangar/infra';
import { eventually } from './eventually';
import type { RunningHangar } from './hangar-process';

export interface RunningGateway {
  baseUrl: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * A second gateway process in front of a running Hangar's services: the same
 * program and environment as its first gateway (read from /proc), on its own
 * HTTP port — what a Deployment's second gateway replica is. Lighter than a
 * second whole Hangar when only the gateway's behaviour across replicas is in
 * question (shared limits, caches).
 */
export async function startGatewayReplica(hangar: RunningHangar, extraEnv: NodeJS.ProcessEnv = {}): Promise<RunningGateway> {
  const pid = hangar.pidOf('gateway');
  const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  const env = Object.fromEntries(
    fs
      .readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  const port = await freePort();
  const child: ChildProcess = spawn(argv[0]!, argv.slice(1), {
    env: { ...env, HANGAR_PORT: String(port), METRICS_PORT: '0', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  let healthy = false;
  const up = async () => child.exitCode !== null || (healthy = await fetch(`${baseUrl}/api/health`).then((r) => r.ok, () => false));
  await eventually(up, { timeoutMs: 60_000, stepMs: 200 }).catch(() => undefined);
  if (!healthy) {
    if (child.exitCode !== null) throw new Error(`the second gateway exited during start:\n${output}`);
    child.kill('SIGKILL');
    throw new Error(`the second gateway did not start in time:\n${output}`);
  }
  return {
    baseUrl,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
