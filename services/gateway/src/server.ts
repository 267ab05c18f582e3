import { startMetricsServer, startTracing } from '@csp/service-kit/ops';
import { buildGatewayApp } from './app.js';
import { loadGatewayConfig } from './config.js';

const config = loadGatewayConfig();
await startTracing('gateway');
const app = await buildGatewayApp(config, {
  logger: {
    level: config.logLevel,
    base: { service: 'gateway' },
    redact: ['req.headers.authorization', 'req.headers.cookie'],
  },
});

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'gateway stopping');
  try {
    await app.close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'gateway did not close cleanly');
    process.exit(1);
  }
}
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.port, host: config.host });
app.log.info({ upstreams: config.upstreams }, `gateway listening on ${config.host}:${config.port}`);
if (config.metricsPort !== undefined) {
  const metrics = await startMetricsServer(config.metricsPort, config.metricsHost);
  app.log.info({ port: metrics.port }, 'metrics listener ready');
}
