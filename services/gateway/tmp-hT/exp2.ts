import Fastify, { type FastifyInstance } from 'fastify';
import { context, propagation, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
async function main(): Promise<void> {
  const N = Number(process.env.N ?? 5000);
  const ROUNDS = Number(process.env.ROUNDS ?? 10);
  const { startTracing, registerTracing, injectTraceContext, requestTraceContext, registerHttpMetrics } = await import('../../../packages/service-kit/src/ops.js');
  const mk = async (setup: (app: FastifyInstance) => Promise<void> | void) => {
    const app = Fastify();
    await setup(app);
    app.get('/api/auth/*', async (request) => { const h: Record<string, unknown> = {}; injectTraceContext(h, requestTraceContext(request)); return { ok: true }; });
    await app.ready();
    return app;
  };
  const variants: Record<string, FastifyInstance> = {};
  variants.none = await mk(() => {});
  variants.metrics = await mk((app) => registerHttpMetrics(app, 'x'));
  variants.emptyHooks = await mk((app) => {
    app.addHook('onRequest', (_q, _r, done) => done());
    app.addHook('onError', (_q, _r, _e, done) => done());
    app.addHook('onResponse', (_q, _r, done) => done());
  });
  variants.routeOpts = await mk((app) => {
    app.addHook('onRequest', (q, _r, done) => { if (q.routeOptions.url === 'x') return; done(); });
    app.addHook('onResponse', (q, _r, done) => { if (q.routeOptions.url === 'x') return; done(); });
  });
  await startTracing('exp', { OTEL_TRACES_EXPORTER: 'memory' }, { synchronousContext: true });
  const tracer = trace.getTracer('exp');
  variants.spanOnly = await mk((app) => {
    const k = Symbol('s');
    app.decorateRequest(k as any, null);
    app.addHook('onRequest', (q, _r, done) => { (q as any)[k] = tracer.startSpan('GET /api/auth/*', { kind: SpanKind.SERVER }); done(); });
    app.addHook('onResponse', (q, _r, done) => { (q as any)[k].end(); done(); });
  });
  variants.tracing = await mk((app) => registerTracing(app));
  variants.both = await mk(async (app) => { await registerTracing(app); await registerHttpMetrics(app, 'y'); });
  const names = Object.keys(variants);
  const req = { method: 'GET' as const, url: '/api/auth/me', headers: { authorization: 'Bearer bench' } };
  const res: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < ROUNDS + 1; r++) {
    const order = r % 2 ? [...names].reverse() : names;
    for (const n of order) {
      const b = process.cpuUsage();
      for (let i = 0; i < N; i++) await variants[n]!.inject(req);
      const u = process.cpuUsage(b);
      if (r > 0) res[n]!.push((u.user + u.system) / N);
    }
  }
  const med = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
  for (const n of names) console.log(n.padEnd(12), 'median', med(res[n]!).toFixed(2), 'min', Math.min(...res[n]!).toFixed(2), 'd(median) vs none', (med(res[n]!) - med(res.none!)).toFixed(2));
  process.exit(0);
}
await main();
