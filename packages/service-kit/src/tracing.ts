import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type ContextManager,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import type { InMemorySpanExporter, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * OpenTelemetry for every process (ARCHITECTURE "Growing past one machine"): off by default, on when
 * an exporter is configured by the standard variables (OTEL_TRACES_EXPORTER or
 * OTEL_EXPORTER_OTLP[_TRACES]_ENDPOINT; OTEL_SDK_DISABLED=true wins). The NodeSDK reads the rest
 * (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, headers, sampler, OTEL_BSP_* of its batch processor)
 * itself. No auto-instrumentation hooks: the request span comes from two Fastify hooks here (one SERVER
 * span per request, registerTracing), batch steps and events carry `traceparent` themselves (one span
 * per step, chunk, event).
 * The SDK is imported only when tracing is on: a process with tracing off never loads it, and with
 * no context manager installed `context.active()` is a constant (no per-request async context work).
 */

let sdk: NodeSDK | undefined;
let tracer: Tracer | undefined;

export function tracingRequested(env: Record<string, string | undefined> = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return Boolean(env.OTEL_TRACES_EXPORTER || env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

export function tracingEnabled(): boolean {
  return sdk !== undefined;
}

export interface TracingOptions {
  /**
   * Only the synchronous context (`context.with`) instead of AsyncLocalStorage: for a process whose
   * spans never need the active context across an `await` (the gateway passes each request's context
   * explicitly), it saves the async hooks on every promise. Default: AsyncLocalStorage.
   */
  synchronousContext?: boolean;
}

type Export = { traceExporter: SpanExporter } | { spanProcessors: SpanProcessor[] } | Record<string, never>;

async function start(serviceName: string, exporting: Export, options: TracingOptions = {}): Promise<void> {
  if (sdk) return;
  const [{ NodeSDK }, { StackContextManager }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/sdk-trace'),
  ]);
  if (sdk) return;
  const contextManager: ContextManager | undefined = options.synchronousContext ? new StackContextManager() : undefined;
  sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? serviceName,
    instrumentations: [],
    // Metrics are prom-client's (ops port) and logs are pino's: without these the SDK would start its
    // default OTLP metric reader and log exporter (OTEL_METRICS_EXPORTER / OTEL_LOGS_EXPORTER unset).
    metricReaders: [],
    logRecordProcessors: [],
    ...(contextManager ? { contextManager } : {}),
    // A trace exporter goes behind the SDK's BatchSpanProcessor (OTEL_BSP_*), exactly as OTLP's does.
    ...exporting,
  });
  sdk.start();
  tracer = trace.getTracer('@csp/service-kit');
}

/**
 * Starts the SDK when the environment asks for it; returns whether tracing is on. Call once at boot.
 * OTEL_TRACES_EXPORTER=memory (benches only) keeps the spans in memory, behind the same batch
 * processor as OTLP: the full cost without a collector.
 */
export async function startTracing(
  serviceName: string,
  env: Record<string, string | undefined> = process.env,
  options: TracingOptions = {},
): Promise<boolean> {
  if (env.OTEL_SDK_DISABLED !== 'true' && env.OTEL_TRACES_EXPORTER === 'memory') {
    const { InMemorySpanExporter } = await import('@opentelemetry/sdk-trace');
    const exporter = new InMemorySpanExporter();
    await start(serviceName, { traceExporter: exporter }, options);
    // bounded: a long bench must not grow without end
    setInterval(() => {
      if (exporter.getFinishedSpans().length > 50_000) exporter.reset();
    }, 1000).unref();
  } else if (tracingRequested(env)) await start(serviceName, {}, options);
  return tracingEnabled();
}

/**
 * Tests: tracing on with every finished span kept in memory, behind a batch processor exporting every
 * `exportEveryMs` (call flushTracing() before reading spans that may still be queued).
 */
export async function startInMemoryTracing(
  serviceName = 'test',
  options: TracingOptions & { exportEveryMs?: number } = {},
): Promise<InMemorySpanExporter> {
  const { InMemorySpanExporter, BatchSpanProcessor } = await import('@opentelemetry/sdk-trace');
  const exporter = new InMemorySpanExporter();
  const processor = new BatchSpanProcessor({ exporter, scheduledDelayMillis: options.exportEveryMs ?? 20 });
  await start(serviceName, { spanProcessors: [processor] }, options);
  return exporter;
}

/** Exports every span still queued in the batch processor (tests, and before a process exits). */
export async function flushTracing(): Promise<void> {
  const provider = trace.getTracerProvider() as { getDelegate?(): { forceFlush?(): Promise<void> } };
  await provider.getDelegate?.().forceFlush?.();
}

export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  tracer = undefined;
  await running?.shutdown();
}

/** The request's span and its context, set by the onRequest hook (a request decoration: fixed shape). */
const REQUEST_SPAN = Symbol('csp request span');
const REQUEST_CONTEXT = Symbol('csp request trace context');
type TracedRequest = FastifyRequest & { [REQUEST_SPAN]: Span | null; [REQUEST_CONTEXT]: Context | null };

/** The readiness/liveness probe: polled all day, never worth a span. */
const HEALTH_ROUTE = '/api/health';

/**
 * Registers the request spans when tracing is on (nothing at all when off: no hook, no per-request
 * work). onRequest starts one SERVER span named `METHOD /route/:pattern`, continuing the caller's W3C
 * `traceparent`, and runs the rest of the request in its context (AsyncLocalStorage carries it into the
 * handler; with the synchronous context the request keeps it for requestTraceContext). onResponse sets
 * the route and status attributes (ERROR on 5xx) and ends it. Call before any route is added.
 */
export async function registerTracing(app: FastifyInstance): Promise<void> {
  const active = tracer;
  if (!active) return;
  app.decorateRequest(REQUEST_SPAN, null);
  app.decorateRequest(REQUEST_CONTEXT, null);

  app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const route = request.routeOptions.url;
    if (route === HEALTH_ROUTE) return done();
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = active.startSpan(route ? `${request.method} ${route}` : request.method, { kind: SpanKind.SERVER }, parent);
    const ctx = trace.setSpan(parent, span);
    (request as TracedRequest)[REQUEST_SPAN] = span;
    (request as TracedRequest)[REQUEST_CONTEXT] = ctx;
    context.with(ctx, done);
  });

  app.addHook('onError', (request: FastifyRequest, _reply: FastifyReply, error: Error, done: HookHandlerDoneFunction) => {
    const span = (request as TracedRequest)[REQUEST_SPAN];
    if (span) {
      span.recordException(error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    }
    done();
  });

  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const span = (request as TracedRequest)[REQUEST_SPAN];
    if (span) {
      (request as TracedRequest)[REQUEST_SPAN] = null;
      span.setAttribute('http.request.method', request.method);
      const route = request.routeOptions.url;
      if (route) span.setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', reply.statusCode);
      // a 5xx that threw already has its message (onError); one that did not still fails the span
      if (reply.statusCode >= 500 && !(span as { status?: { code: number } }).status?.code) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });
}

/**
 * The context of a request's span (kept on the request by the onRequest hook), so code that runs after
 * an `await` can pass it on without AsyncLocalStorage; the active context when the request has none.
 */
export function requestTraceContext(request: FastifyRequest | object): Context {
  return (request as Partial<TracedRequest>)[REQUEST_CONTEXT] ?? context.active();
}

/**
 * The one W3C trace-context writer of the platform: adds `traceparent` (and `tracestate`) of the span
 * of `ctx` to `carrier` when that span is recording; leaves it untouched when tracing is off.
 * Returns whether it wrote.
 */
export function injectTraceContext(carrier: Record<string, unknown>, ctx: Context = context.active()): boolean {
  if (!trace.getSpan(ctx)?.isRecording()) return false;
  propagation.inject(ctx, carrier);
  return true;
}

/** The W3C trace context of the active span (`{ traceparent, tracestate? }`), empty when none. */
export function currentTraceHeaders(ctx: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  injectTraceContext(carrier, ctx);
  return carrier;
}
