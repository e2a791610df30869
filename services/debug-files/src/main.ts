import { telemetry } from './telemetry';
import { runService } from '@hangar/service';
import { InstallationMismatch } from '@hangar/storage';
import { loadDebugFilesConfig } from './config';
import { startDebugFilesService } from './debug-files-service';

runService({
  name: 'debug-files',
  loadConfig: () => loadDebugFilesConfig(),
  telemetry,
  async start({ config, logger, metrics, shutdown }) {
    await startDebugFilesService(config, logger, metrics, { shutdown });
  },
  // A database that does not belong to the bucket: a restart would only refuse again.
  refusedToStart: (err) => err instanceof InstallationMismatch,
});
