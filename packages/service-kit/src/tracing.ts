import type { FastifyOtelInstrumentation } from '@fastify/otel';
import { context, propagation, trace, type Context } from '@opentelemetry/api';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import type { InMemorySpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace';
import type { FastifyInstance } from 'fastify';

/**
 * OpenTelemetry for every process (ARCHITECTURE "Growing past one machine"): off by default, on when
 * an exporter is configured by the standard variables (OTEL_TRACES_EXPORTER or
 * OTEL_EXPORTER_OTLP[_TRACES]_ENDPOINT; OTEL_SDK_DISABLED=true wins). The NodeSDK reads the rest
 * (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, headers, sampler) itself. No auto-instrumentation
 * hooks: Fastify spans come from @fastify/otel, batch steps and events carry `traceparent` themselves.
 * The SDK is imported only when tracing is on: a process with tracing off never loads it.
 */

let sdk: NodeSDK | undefined;
let fastifyOtel: FastifyOtelInstrumentation | undefined;

export function tracingRequested(env: Record<string, string | undefined> = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return Boolean(env.OTEL_TRACES_EXPORTER || env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

export function tracingEnabled(): boolean {
  return sdk !== undefined;
}

async function start(serviceName: string, spanProcessors?: SpanProcessor[]): Promise<void> {
  if (sdk) return;
  const [{ NodeSDK }, { FastifyOtelInstrumentation }] = await Promise.all([import('@opentelemetry/sdk-node'), import('@fastify/otel')]);
  if (sdk) return;
  sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? serviceName,
    instrumentations: [],
    ...(spanProcessors ? { spanProcessors } : {}),
  });
  sdk.start();
  fastifyOtel = new FastifyOtelInstrumentation({ instrumentHooks: false, ignorePaths: '/api/health' });
}

/**
 * Starts the SDK when the environment asks for it; returns whether tracing is on. Call once at boot.
 * OTEL_TRACES_EXPORTER=memory (benches only) keeps the spans in memory: the full cost without a collector.
 */
export async function startTracing(serviceName: string, env: Record<string, string | undefined> = process.env): Promise<boolean> {
  if (env.OTEL_SDK_DISABLED !== 'true' && env.OTEL_TRACES_EXPORTER === 'memory') {
    const exporter = await startInMemoryTracing(serviceName);
    // bounded: a long bench must not grow without end
    setInterval(() => {
      if (exporter.getFinishedSpans().length > 50_000) exporter.reset();
    }, 1000).unref();
  }
  else if (tracingRequested(env)) await start(serviceName);
  return tracingEnabled();
}

/** Tests and benches: tracing on with every finished span kept in memory. */
export async function startInMemoryTracing(serviceName = 'test'): Promise<InMemorySpanExporter> {
  const { InMemorySpanExporter, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace');
  const exporter = new InMemorySpanExporter();
  await start(serviceName, [new SimpleSpanProcessor({ exporter })]);
  return exporter;
}

export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  fastifyOtel = undefined;
  await running?.shutdown();
}

/** Registers the request spans (W3C `traceparent` in, one span per request and handler) when tracing is on. */
export async function registerTracing(app: FastifyInstance): Promise<void> {
  if (fastifyOtel) await app.register(fastifyOtel.plugin());
}

/** The W3C trace context of the active span (`{ traceparent, tracestate? }`), empty when none. */
export function currentTraceHeaders(ctx: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  if (trace.getSpan(ctx)) propagation.inject(ctx, carrier);
  return carrier;
}
