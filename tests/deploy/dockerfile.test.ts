import fs from 'node:fs';
import path from 'node:path';
import { configLoader, declares, REPO_ROOT } from './config-schemas';
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
