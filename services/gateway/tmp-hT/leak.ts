import Fastify from 'fastify';
import { trace, SpanKind } from '@opentelemetry/api';
const { startTracing, registerTracing, registerHttpMetrics } = await import('../../../packages/service-kit/src/ops.js');
const MODE = process.env.MODE ?? 'tracing';
if (MODE !== 'none' && MODE !== 'metrics') await startTracing('exp', { OTEL_TRACES_EXPORTER: 'memory' }, { synchronousContext: true });
const app = Fastify();
if (MODE === 'tracing') await registerTracing(app);
if (MODE === 'metrics') await registerHttpMetrics(app, 'x');
if (MODE === 'rawspan') { const t = trace.getTracer('x'); app.addHook('onRequest', (_q, _r, d) => { t.startSpan('x', { kind: SpanKind.SERVER }).end(); d(); }); }
app.get('/api/auth/*', async () => ({ ok: true }));
await app.ready();
for (let r = 0; r < 6; r++) {
  for (let i = 0; i < 20000; i++) await app.inject({ method: 'GET', url: '/api/auth/me' });
  global.gc?.();
  console.log(MODE, r, (process.memoryUsage().heapUsed / 1e6).toFixed(0), 'MB');
}
process.exit(0);
