import { runServiceProcess } from '@csp/service-kit';
import { analyticsEnv, buildApp, SERVICE_NAME } from './app.js';

await runServiceProcess({
  name: SERVICE_NAME,
  defaultPort: 8106,
  config: analyticsEnv.shape,
  buildApp: (deps) => buildApp({ ...deps, pollIntervalMs: deps.config.KPI_REFRESH_POLL_MS }),
});
