import { telemetry } from './telemetry';
import { runService } from '@hangar/service';
import { loadUsersConfig } from './config';
import { bootstrapAdmin } from './domain/bootstrap-admin';
import { startUsersService } from './users-service';

runService({
  name: 'users',
  loadConfig: () => loadUsersConfig(),
  telemetry,
  async start({ config, logger, metrics, shutdown }) {
    let bootstrap: Awaited<ReturnType<typeof bootstrapAdmin>> | undefined;
    await startUsersService(config, logger, metrics, {
      shutdown,
      beforeListening: async (deps) => {
        bootstrap = await bootstrapAdmin(deps, { email: config.HANGAR_ADMIN_EMAIL, password: config.HANGAR_ADMIN_PASSWORD, token: config.HANGAR_ADMIN_TOKEN }, logger);
      },
    });
    if (bootstrap?.created && (bootstrap.generatedToken || bootstrap.generatedPassword)) {
      // Printed once, outside the structured log, so secrets never enter log storage.
      process.stderr.write(
        `\nHangar bootstrap admin ${config.HANGAR_ADMIN_EMAIL}` +
          (bootstrap.generatedPassword ? `\n  password: ${bootstrap.generatedPassword}` : '') +
          (bootstrap.generatedToken ? `\n  token:    ${bootstrap.generatedToken}` : '') +
          '\nStore them now: they are not shown again.\n\n',
      );
    }
  },
});
