import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '@hangar/infra';
import { SystemTool, label, loadTools, plan } from '../system-tools';
import { programsIn, testSourceFiles } from './spawned-programs';

const tools = loadTools();
const listed = new Set(tools.flatMap((t) => [t.command, t.file]).filter((p): p is string => Boolean(p)).flatMap((p) => [p, path.basename(p)]));
const tool = (fields: Partial<SystemTool>): SystemTool => ({ usedBy: 'a test', ...fields });

describe('the list of programs the test suite starts (libs/testing/system-tools.json)', () => {
  it('when a test file or a helper it uses starts a program, then that program is on the list', () => {
    const files = testSourceFiles(REPO_ROOT);
    expect(files.length).toBeGreaterThan(50);
    const unlisted = files
      .flatMap((file) => programsIn(fs.readFileSync(file, 'utf8'), path.relative(REPO_ROOT, file)))
      .filter(({ program }) => !listed.has(program) && !listed.has(path.basename(program)));
    expect(unlisted).toEqual([]);
  });

  it('when the source starts an unlisted program, then the scan finds it, however it is called', () => {
    const call = (fn: string, program: string) => `${fn}(${JSON.stringify(program)}, ['-x'])`;
    // Paths built here, so that this file's own source does not name them.
    const usr = (...parts: string[]) => ['', 'usr', ...parts].join('/');
    const source = [
      call('execFileSync', 'frobnicate'),
      call('spawn', usr('bin', 'widgetize')),
      call('promisify(execFile)', 'quux'),
      call('sh', 'gizmo'),
      `const TOOL = process.env.TOOL_PATH ?? ${JSON.stringify(usr('sbin', 'doohickey'))};`,
    ].join('\n');
    expect(programsIn(source).map((p) => p.program)).toEqual(['frobnicate', usr('bin', 'widgetize'), 'gizmo', 'quux', usr('sbin', 'doohickey')]);
  });

  it('when an entry is read, then it says where the program comes from: a Debian package, an install hint, or the way round it', () => {
    for (const t of tools) expect({ tool: label(t), source: Boolean(t.debian || t.install || t.optional), usedBy: Boolean(t.usedBy) }).toEqual({ tool: label(t), source: true, usedBy: true });
  });
});

describe('plan', () => {
  const list = [
    tool({ command: 'zip', debian: 'zip' }),
    tool({ command: 'mkapfs', debian: 'apfsprogs' }),
    tool({ command: 'mkapfs-twin', debian: 'apfsprogs' }),
    tool({ command: 'go', install: 'Go from go.dev' }),
    tool({ command: 'nats-server', debian: 'nats-server', optional: 'built with Go' }),
    tool({ command: 'here', debian: 'here' }),
  ];

  it('when several programs are missing, then one message names every one and gives one apt-get command with each package once', () => {
    const result = plan(list, (t) => t.command === 'here');
    expect(result.missing.map(label)).toEqual(['zip', 'mkapfs', 'mkapfs-twin', 'go']);
    expect(result.message).toContain('zip, mkapfs, mkapfs-twin, go');
    const commands = result.message.split('\n').filter((l) => l.includes('apt-get install'));
    expect(commands).toEqual(['  sudo apt-get install -y --no-install-recommends zip apfsprogs']);
    expect(result.message).toContain('go: Go from go.dev');
  });

  it('when only a program with a way round it is missing, then nothing is required but its package is still installed where possible', () => {
    const result = plan(list, (t) => t.command !== 'nats-server');
    expect(result.missing).toEqual([]);
    expect(result.message).toBe('');
    expect(result.packages).toEqual(['nats-server']);
  });
});

describe('npm test on a machine without the tools', () => {
  it('when programs are missing and apt-get cannot run, then it stops at once with one message and the install command, before building', () => {
    // PATH with only node: Go and every Debian tool are missing, apt-get too.
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'hangar-no-tools-'));
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    try {
      const started = Date.now();
      const result = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'test.mjs')], {
        cwd: REPO_ROOT,
        env: { HOME: os.tmpdir(), PATH: bin, HANGAR_CHECK_TOOLS_ONLY: '1' },
        encoding: 'utf8',
      });
      expect(result.status).toBe(1);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(result.stdout).not.toMatch(/▶ build/);
      const required = tools.filter((t) => !t.optional && !t.file && !(t.command ?? '').startsWith('/usr/bin/'));
      for (const t of required) expect(result.stderr).toContain(label(t));
      expect(result.stderr.match(/apt-get install/g)).toHaveLength(1);
    } finally {
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });
});
