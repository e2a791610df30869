import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnManaged } from './child-processes';
import { EXIT_REFUSED_TO_START } from '@hangar/config';
import { Supervisor } from './supervisor';

/**
 * The launcher's line for a process that died says why, from the process's own
 * log: CI's failure of engine-paths.test.ts printed "apps exited (1)" seven
 * times and nothing else, and the logs that said why were removed with the run.
 */
describe('Supervisor', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-supervisor-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function firstExitLine(name: string, program: string): Promise<string> {
    const entry = path.join(dir, `${name}.js`);
    fs.writeFileSync(entry, program);
    const lines: string[] = [];
    const supervisor = new Supervisor({
      name,
      entry,
      env: process.env,
      logsDir: path.join(dir, 'logs'),
      runDir: path.join(dir, 'run'),
      toConsole: false,
      shuttingDown: () => false,
      log: (line) => lines.push(line),
    });
    try {
      const deadline = Date.now() + 20_000;
      while (lines.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return lines[0] ?? '(no line)';
    } finally {
      await supervisor.stop();
    }
  }

  it('when a service fails to start, then its exit line carries the message it wrote', async () => {
    const line = await firstExitLine(
      'apps',
      `console.log(JSON.stringify({ level: 'info', msg: 'metrics at /metrics' }));
       process.stderr.write('apps service failed to start: listen EADDRINUSE: address already in use 127.0.0.1:23456\\n');
       process.exit(1);`,
    );
    expect(line).toBe('apps exited (1): apps service failed to start: listen EADDRINUSE: address already in use 127.0.0.1:23456; restarting in 500 ms');
  });

  it('when a process dies of an uncaught error, then its exit line names the error, not a stack frame', async () => {
    const line = await firstExitLine('releases', `setTimeout(() => { throw new TypeError('cannot read the config'); }, 10);`);
    expect(line).toBe('releases exited (1): TypeError: cannot read the config; restarting in 500 ms');
  });

  it('when a process logs a fatal entry and exits, then its exit line carries the entry and its error', async () => {
    const line = await firstExitLine(
      'users',
      `console.log(JSON.stringify({ level: 'fatal', msg: 'cannot reach MongoDB', err: { message: 'connect ECONNREFUSED 127.0.0.1:27017' } }));
       process.exit(2);`,
    );
    expect(line).toBe('users exited (2): cannot reach MongoDB: connect ECONNREFUSED 127.0.0.1:27017; restarting in 500 ms');
  });

  it('when a process exits without a word, then its exit line says only the code', async () => {
    const line = await firstExitLine('gateway', `console.log(JSON.stringify({ level: 'info', msg: 'listening' })); process.exit(3);`);
    expect(line).toBe('gateway exited (3); restarting in 500 ms');
  });

  it('when a service refuses to start (EXIT_REFUSED_TO_START), then it is not started again and the refusal carries its whole reason', async () => {
    const entry = path.join(dir, 'refusing.js');
    const reason = `The database is empty but the bucket holds Hangar's objects: ${'details '.repeat(60)}HANGAR_ADOPT_BUCKET=abc`;
    fs.writeFileSync(entry, `process.stderr.write(${JSON.stringify(`releases service failed to start: ${reason}\n`)}); process.exit(${EXIT_REFUSED_TO_START});`);
    const lines: string[] = [];
    const refusals: string[] = [];
    const supervisor = new Supervisor({
      name: 'releases',
      entry,
      env: process.env,
      logsDir: path.join(dir, 'logs'),
      runDir: path.join(dir, 'refusing-run'),
      toConsole: false,
      shuttingDown: () => false,
      log: (line) => lines.push(line),
      onRefusal: (why) => refusals.push(why),
    });
    try {
      const deadline = Date.now() + 20_000;
      while (refusals.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(refusals).toEqual([`releases service failed to start: ${reason}`]);
      // No "restarting in" line, in the exit handler that would have scheduled the restart.
      expect(lines).toEqual([]);
    } finally {
      await supervisor.stop();
    }
  });

  it('when a server it started dies of SIGKILL, then it is started again with the same arguments after its own delay, and its pid file names the new run', async () => {
    const runDir = path.join(dir, 'server-run');
    const lines: string[] = [];
    const supervisor = new Supervisor({
      name: 'server',
      spawn: () => spawnManaged({ name: 'server', command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] }),
      runDir,
      log: (line) => lines.push(line),
      restartDelayMs: 100,
    });
    const pidFile = path.join(runDir, 'server.pid');
    try {
      const first = Number(fs.readFileSync(pidFile, 'utf8'));
      expect(first).toBe(supervisor.process.child.pid);
      process.kill(first, 'SIGKILL');
      const deadline = Date.now() + 20_000;
      while (Number(fs.readFileSync(pidFile, 'utf8')) === first && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const second = Number(fs.readFileSync(pidFile, 'utf8'));
      expect(second).not.toBe(first);
      expect(second).toBe(supervisor.process.child.pid);
      expect(lines).toEqual(['server exited (SIGKILL); restarting in 100 ms']);
    } finally {
      await supervisor.stop();
    }
    expect(supervisor.process.child.signalCode).toBe('SIGTERM');
  });
});
