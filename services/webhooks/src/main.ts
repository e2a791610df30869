import { telemetry } from './telemetry';
import { runService } from '@hangar/service';
import { loadWebhooksConfig } from './config';
import { startWebhooksService } from './webhooks-service';

runService({
  name: 'webhooks',
  loadConfig: () => loadWebhooksConfig(),
  telemetry,
  async start({ config, logger, metrics, shutdown }) {
    await startWebhooksService(config, logger, metrics, { shutdown });
  },
});
