import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import type { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  contextFromCarrier,
  currentTraceHeaders,
  flushTracing,
  injectTraceContext,
  registerTracing,
  requestTraceContext,
  startInMemoryTracing,
  stopTracing,
  traceCarrierOf,
} from '../src/tracing.js';

/**
 * The request spans as the gateway runs them (synchronous context, no AsyncLocalStorage): one span per
 * request, none for the health probe, the request's context reachable after an `await`, and spans
 * leaving through a batch processor (nothing exported until it flushes).
 */

let exporter: InMemorySpanExporter;
let app: FastifyInstance;
/** Built while tracing was still off: registerTracing must have added nothing to it. */
let untracedApp: FastifyInstance;
const forwarded: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  untracedApp = Fastify();
  await registerTracing(untracedApp);
  untracedApp.get('/api/agents/:id', async () => ({ ok: true }));
  await untracedApp.ready();
  // an export interval far beyond the test: only flushTracing() exports
  exporter = await startInMemoryTracing('tracing-test', { synchronousContext: true, exportEveryMs: 600_000 });
  app = Fastify();
  await registerTracing(app);
  app.get('/api/health', async () => ({ ok: true }));
  app.get('/api/agents/:id', async (request) => {
    await new Promise((r) => setTimeout(r, 5)); // past an await, as the gateway's forwarder is
    const headers: Record<string, unknown> = {};
    injectTraceContext(headers, requestTraceContext(request));
    forwarded.push(headers);
    return { ok: true };
  });
  app.get('/api/fails', async () => {
    throw new Error('database went away');
  });
  app.post('/api/agents', async (_request, reply) => reply.code(201).send({ id: 1 }));
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await untracedApp?.close();
  await stopTracing();
});

describe('request spans', () => {
  it('queues spans in the batch processor and exports them on flush', async () => {
    exporter.reset();
    expect((await app.inject({ method: 'GET', url: '/api/agents/7' })).statusCode).toBe(200);
    expect(exporter.getFinishedSpans()).toHaveLength(0);
    await flushTracing();
    expect(exporter.getFinishedSpans()).toHaveLength(1);
  });

  it('makes one SERVER span per request, named by method and route pattern, and none for the health probe', async () => {
    exporter.reset();
    await app.inject({ method: 'GET', url: '/api/agents/12?x=1' });
    await app.inject({ method: 'GET', url: '/api/health' });
    await app.inject({ method: 'POST', url: '/api/agents', payload: {} });
    await flushTracing();
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => [s.name, s.kind, s.attributes, s.status.code])).toEqual([
      [
        'GET /api/agents/:id',
        SpanKind.SERVER,
        { 'http.request.method': 'GET', 'http.route': '/api/agents/:id', 'http.response.status_code': 200 },
        SpanStatusCode.UNSET,
      ],
      [
        'POST /api/agents',
        SpanKind.SERVER,
        { 'http.request.method': 'POST', 'http.route': '/api/agents', 'http.response.status_code': 201 },
        SpanStatusCode.UNSET,
      ],
    ]);
  });

  it('fails the span of a request that threw, with the message, and names an unrouted request by its method', async () => {
    exporter.reset();
    expect((await app.inject({ method: 'GET', url: '/api/fails' })).statusCode).toBe(500);
    expect((await app.inject({ method: 'GET', url: '/api/nowhere' })).statusCode).toBe(404);
    await flushTracing();
    const [failed, unrouted] = exporter.getFinishedSpans();
    expect([failed!.name, failed!.status, failed!.attributes['http.response.status_code']]).toEqual([
      'GET /api/fails',
      { code: SpanStatusCode.ERROR, message: 'database went away' },
      500,
    ]);
    expect(failed!.events.map((e) => e.name)).toEqual(['exception']);
    expect([unrouted!.name, unrouted!.attributes['http.route'], unrouted!.attributes['http.response.status_code']]).toEqual([
      'GET',
      undefined,
      404,
    ]);
  });

  it('adds nothing to an app registered while tracing was off', async () => {
    exporter.reset();
    expect((await untracedApp.inject({ method: 'GET', url: '/api/agents/4' })).statusCode).toBe(200);
    await flushTracing();
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });

  it('hands the request span context on after an await, without async context', async () => {
    exporter.reset();
    forwarded.length = 0;
    await app.inject({ method: 'GET', url: '/api/agents/3' });
    await flushTracing();
    const [span] = exporter.getFinishedSpans();
    const { traceId, spanId } = span!.spanContext();
    expect(forwarded).toEqual([{ traceparent: `00-${traceId}-${spanId}-01` }]);
  });

  it('continues the caller trace from its traceparent header', async () => {
    exporter.reset();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpanId = '00f067aa0ba902b7';
    await app.inject({ method: 'GET', url: '/api/agents/5', headers: { traceparent: `00-${traceId}-${callerSpanId}-01` } });
    await flushTracing();
    const [span] = exporter.getFinishedSpans();
    expect(span!.spanContext().traceId).toBe(traceId);
    expect(span!.parentSpanContext?.spanId).toBe(callerSpanId);
  });

  it('writes no trace context outside a span', () => {
    const headers: Record<string, unknown> = {};
    expect(injectTraceContext(headers)).toBe(false);
    expect(headers).toEqual({});
    expect(currentTraceHeaders()).toEqual({});
  });

  it('a sampled-out request propagates its trace with flags 00 and exports no span', async () => {
    exporter.reset();
    forwarded.length = 0;
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await app.inject({ method: 'GET', url: '/api/agents/6', headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-00` } });
    await flushTracing();
    expect(exporter.getFinishedSpans()).toHaveLength(0);
    expect(forwarded).toHaveLength(1);
    expect(forwarded[0]!.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
  });
});

describe('trace carriers (job payloads, events)', () => {
  const traceId = '0af7651916cd43dd8448eb211c80319c';
  const spanId = 'b7ad6b7169203331';

  it('reads a traceparent and tracestate into a remote parent and writes them back unchanged', () => {
    const ctx = contextFromCarrier({ traceparent: `00-${traceId}-${spanId}-01`, tracestate: 'congo=t61rcWkgMzE' }, ROOT_CONTEXT);
    expect(trace.getSpanContext(ctx)).toEqual(expect.objectContaining({ traceId, spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true }));
    expect(traceCarrierOf(ctx)).toEqual({ traceparent: `00-${traceId}-${spanId}-01`, tracestate: 'congo=t61rcWkgMzE' });
  });

  it('ignores a missing, malformed or invalid traceparent (the given context is returned)', () => {
    for (const traceparent of [undefined, 42, '', 'garbage', `00-${traceId}-${spanId}-01-extra`, `ff-${traceId}-${spanId}-01`,
      `00-${'0'.repeat(32)}-${spanId}-01`, `00-${traceId}-${'0'.repeat(16)}-01`, `00-${traceId.toUpperCase()}-${spanId}-01`]) {
      expect(contextFromCarrier({ traceparent }, ROOT_CONTEXT), String(traceparent)).toBe(ROOT_CONTEXT);
    }
    expect(contextFromCarrier(undefined, ROOT_CONTEXT)).toBe(ROOT_CONTEXT);
  });

  it('accepts a later version with more fields', () => {
    const ctx = contextFromCarrier({ traceparent: `01-${traceId}-${spanId}-01-what-the-future-adds` }, ROOT_CONTEXT);
    expect(trace.getSpanContext(ctx)?.spanId).toBe(spanId);
  });

  it('gives no carrier outside a span', () => {
    expect(traceCarrierOf(ROOT_CONTEXT)).toBeUndefined();
  });
});
