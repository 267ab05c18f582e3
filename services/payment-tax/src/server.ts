import { runServiceProcess } from '@csp/service-kit';
import { buildApp, SERVICE_NAME } from './app.js';

await runServiceProcess({ name: SERVICE_NAME, defaultPort: 8105, buildApp });
