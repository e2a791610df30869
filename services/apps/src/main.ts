import { telemetry } from './telemetry';
import { runService } from '@hangar/service';
import { startAppsService } from './apps-service';
import { loadAppsConfig } from './config';

runService({
  name: 'apps',
  loadConfig: () => loadAppsConfig(),
  telemetry,
  async start({ config, logger, metrics, shutdown }) {
    await startAppsService(config, logger, metrics, { shutdown });
  },
});
