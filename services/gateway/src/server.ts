import { startMetricsServer, startTracing } from '@csp/service-kit/ops';
import { buildGatewayApp } from './app.js';
import { loadGatewayConfig } from './config.js';

const config = loadGatewayConfig();
// The gateway hands each request's span context to the forwarder explicitly (forward.ts), so it needs no
// AsyncLocalStorage: the synchronous context spares the async hooks on every promise of every request.
await startTracing('gateway', process.env, { synchronousContext: true });
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
