import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '@hangar/infra';

/**
 * The gateway at rest holds only what every request may need (its resident memory
 * counts against every upload). The package parsers (teardown's head check), the QR code
 * library, openid-client (single sign-on) and the OpenTelemetry exporters and
 * instrumentations (a collector) are loaded when first used, not at start.
 */
describe('the gateway at rest', () => {
  /** The modules the built gateway has loaded once main.js has run its imports and its start has begun. */
  function modulesLoadedAtStart(env: NodeJS.ProcessEnv): string[] {
    // Without its servers configured the start stops at the config check, after every import
    // of main.js and the telemetry start have run; exit is held back so the list can be printed.
    const script = `
      process.exit = () => undefined;
      require(${JSON.stringify(path.join(REPO_ROOT, 'services', 'gateway', 'dist', 'main.js'))});
      setTimeout(() => process.stdout.write(JSON.stringify(Object.keys(require.cache))), 300);
    `;
    const out = execFileSync(process.execPath, ['-e', script], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
    return JSON.parse(out.toString()) as string[];
  }

  const lazily = [/[\\/]libs[\\/]parsers[\\/]/, /node_modules[\\/]qrcode[\\/]/, /node_modules[\\/](openid-client|oauth4webapi)[\\/]/, /@opentelemetry[\\/](exporter-trace-otlp|instrumentation-http)/];

  it('when it starts without a collector or single sign-on, then parsers, QR codes, OpenID and exporters are not loaded', () => {
    const loaded = modulesLoadedAtStart({});
    expect(loaded.some((file) => file.includes(`${path.sep}services${path.sep}gateway${path.sep}dist${path.sep}app.js`))).toBe(true);
    expect(loaded.filter((file) => lazily.some((pattern) => pattern.test(file)))).toEqual([]);
  });

  // The gateway keeps no database: a driver loaded anyway costs every gateway process about
  // 28 MiB and half a second of start (the service skeleton in libs/grpc once brought mongoose in).
  it('when it starts, then no MongoDB driver is loaded', () => {
    const loaded = modulesLoadedAtStart({});
    expect(loaded.filter((file) => /node_modules[\\/](mongoose|mongodb)[\\/]/.test(file)).slice(0, 3)).toEqual([]);
  });

  it('when a collector is configured, then the exporter and the instrumentations are loaded at start', () => {
    const loaded = modulesLoadedAtStart({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1' });
    expect(loaded.some((file) => /@opentelemetry[\\/]exporter-trace-otlp-proto/.test(file))).toBe(true);
    expect(loaded.some((file) => /@opentelemetry[\\/]instrumentation-http/.test(file))).toBe(true);
  });
});
