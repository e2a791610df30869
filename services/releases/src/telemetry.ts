// First import of main.ts: the SDK must patch node:http, grpc-js and the
// MongoDB driver before anything loads them. The parse-workers Deployment runs
// this same entry point; its spans are told apart by name. RELEASES_MODE is
// read here, ahead of config.ts, because loading the config comes later.
import { startTelemetry } from '@hangar/telemetry';

export const telemetry = startTelemetry({
  serviceName: process.env.RELEASES_MODE === 'parse-workers' ? 'hangar-parse-workers' : 'hangar-releases',
});
