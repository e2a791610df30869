import { telemetry } from './telemetry';
import { runService } from '@hangar/service';
import { InstallationMismatch } from '@hangar/storage';
import { type ReleasesConfig, loadReleasesConfig } from './config';
import { startParseWorkers } from './parse-workers-process';
import { startReleasesService } from './releases-service';

const workersOnly = (config: ReleasesConfig) => config.RELEASES_MODE === 'parse-workers';

runService<ReleasesConfig>({
  name: 'releases',
  loadConfig: () => loadReleasesConfig(),
  logName: (config) => (workersOnly(config) ? 'releases-parse-workers' : 'releases'),
  telemetry,
  // Only the workers-only mode has no gRPC health service and answers /healthz.
  answersHealthz: workersOnly,
  async start({ config, logger, metrics, shutdown }) {
    if (workersOnly(config)) return startParseWorkers(config, logger, metrics, shutdown);
    await startReleasesService(config, logger, metrics, { shutdown });
  },
  // A database that does not belong to the bucket: a restart would only refuse again.
  refusedToStart: (err) => err instanceof InstallationMismatch,
});
