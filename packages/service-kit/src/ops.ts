/** Metrics and tracing alone (`@csp/service-kit/ops`), for processes that do not load the whole kit (gateway, workers). */
export * from './metrics.js';
export * from './tracing.js';
export { SERVICE_CONFIG_KEYS } from './config.js';
