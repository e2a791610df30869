import fs from 'node:fs';
import path from 'node:path';
import { APP_ACTIONS } from '@hangar/proto';

/**
 * "Nothing else compares roles" (permissions.ts), read from the code: every service that asks
 * CheckPermission names an action from the one list, never a role, so which role an action needs
 * is decided here alone.
 */
const SERVICES = path.resolve(__dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist', 'test'].includes(entry.name) ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const calls = fs
  .readdirSync(SERVICES)
  .flatMap((service) => (fs.existsSync(path.join(SERVICES, service, 'src')) ? sourceFiles(path.join(SERVICES, service, 'src')) : []))
  .flatMap((file) => [...fs.readFileSync(file, 'utf8').matchAll(/\.checkPermission\(\{([^}]*)\}/g)].map((m) => ({ where: path.relative(SERVICES, file), args: m[1]! })));

describe('who asks CheckPermission', () => {
  // The scan must find what it judges: each service known to ask, not a count that moves whenever
  // two call sites become one helper (12 calls today).
  it('when the services are read, then the gateway, releases, debug-files and webhooks are found asking it', () => {
    expect(new Set(calls.map((c) => c.where.split(path.sep)[0]))).toEqual(new Set(['gateway', 'releases', 'debug-files', 'webhooks']));
    expect(calls.length).toBeGreaterThanOrEqual(10);
  });

  it('when a service asks, then it names an action of the one list, never a role', () => {
    const wrong = calls.filter(({ args }) => {
      if (/\brole\s*:/.test(args)) return true;
      const literal = /\baction\s*:\s*'([^']*)'/.exec(args);
      if (literal) return !(APP_ACTIONS as readonly string[]).includes(literal[1]!);
      // A variable: typed as an action where it is declared (debug-files channel-access.ts).
      return !/\baction\s*:\s*\w+/.test(args);
    });
    expect(wrong.map((c) => `${c.where}: checkPermission({${c.args.trim()}})`)).toEqual([]);
  });
});
