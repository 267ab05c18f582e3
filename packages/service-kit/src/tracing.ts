import {
  context,
  createTraceState,
  isSpanContextValid,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Context,
  type ContextManager,
  type Span,
  type SpanContext,
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
/** Started with the synchronous context manager (TracingOptions.synchronousContext). */
let synchronous = false;

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
  synchronous = options.synchronousContext === true;
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
    await start(serviceName, { traceExporter: new DiscardingSink() }, options);
  } else if (tracingRequested(env)) await start(serviceName, {}, options);
  return tracingEnabled();
}

/**
 * The benches' exporter (OTEL_TRACES_EXPORTER=memory): like OTLP's, it takes each batch the batch processor
 * hands over and lets it go. (An in-memory exporter kept up to 10,000 spans before, ~7 s of a gateway at
 * 1,500 req/s: spans no exporter holds that long were promoted to the old generation and charged to tracing
 * as GC.) What it does not pay is OTLP's encoding and sending.
 */
class DiscardingSink implements SpanExporter {
  export(_spans: unknown[], done: (result: { code: number }) => void): void {
    done({ code: 0 });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
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
 * `traceparent` (read only when the request has one), and keeps it on the request. With
 * AsyncLocalStorage the rest of the request runs in its context (spans of the handler's work are its
 * children); with the synchronous context (the gateway: it passes the request's trace on explicitly,
 * injectRequestTraceContext) no context object is built at all unless asked for (requestTraceContext).
 * onResponse sets the method, route and status attributes in one call (ERROR on 5xx) and ends the span;
 * a span the sampler dropped still propagates its context, onResponse does no work for it. The
 * attributes are set once at the end rather than passed to startSpan, where the SDK would copy and
 * check them twice (for the sampler, then for the span): the configured samplers never read them.
 * Call before any route is added.
 */
export async function registerTracing(app: FastifyInstance): Promise<void> {
  const active = tracer;
  if (!active) return;
  const runInContext = !synchronous;
  app.decorateRequest(REQUEST_SPAN, null);
  app.decorateRequest(REQUEST_CONTEXT, null);

  app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const route = request.routeOptions.url;
    if (route === HEALTH_ROUTE) return done();
    const parent = request.headers.traceparent === undefined ? ROOT_CONTEXT : contextFromCarrier(request.headers, ROOT_CONTEXT);
    const span = active.startSpan(route ? `${request.method} ${route}` : request.method, { kind: SpanKind.SERVER }, parent);
    (request as TracedRequest)[REQUEST_SPAN] = span;
    if (runInContext) {
      const ctx = trace.setSpan(parent, span);
      (request as TracedRequest)[REQUEST_CONTEXT] = ctx;
      context.with(ctx, done);
    } else done();
  });

  app.addHook('onError', (request: FastifyRequest, _reply: FastifyReply, error: Error, done: HookHandlerDoneFunction) => {
    const span = (request as TracedRequest)[REQUEST_SPAN];
    if (span?.isRecording()) {
      span.recordException(error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
    }
    done();
  });

  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const span = (request as TracedRequest)[REQUEST_SPAN];
    if (span?.isRecording()) {
      const status = reply.statusCode;
      const route = request.routeOptions.url;
      span.setAttributes(
        route
          ? { 'http.request.method': request.method, 'http.route': route, 'http.response.status_code': status }
          : { 'http.request.method': request.method, 'http.response.status_code': status },
      );
      // a 5xx that threw already has its message (onError); one that did not still fails the span
      if (status >= 500 && !(span as { status?: { code: number } }).status?.code) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });
}

/**
 * The context of a request's span (kept on the request by the onRequest hook, or built from its span
 * when first asked for under the synchronous context), so code that runs after an `await` can pass it
 * on without AsyncLocalStorage; the active context when the request has none.
 */
export function requestTraceContext(request: FastifyRequest | object): Context {
  const traced = request as Partial<TracedRequest>;
  const ctx = traced[REQUEST_CONTEXT];
  if (ctx) return ctx;
  const span = traced[REQUEST_SPAN];
  if (!span) return context.active();
  return (traced[REQUEST_CONTEXT] = trace.setSpan(ROOT_CONTEXT, span));
}

/**
 * Adds the W3C trace context of a request's span to `carrier` (the headers of the request a gateway
 * sends on): straight from the span the onRequest hook started (its ids are the SDK's own, valid by
 * construction), without building a context for it; from the active context when the request has no
 * span. Returns whether it wrote.
 */
export function injectRequestTraceContext(carrier: Record<string, unknown>, request: FastifyRequest | object): boolean {
  const span = (request as Partial<TracedRequest>)[REQUEST_SPAN];
  if (!span) return injectTraceContext(carrier, requestTraceContext(request));
  writeCarrier(carrier, span.spanContext());
  return true;
}

/**
 * W3C trace context as it travels in a job payload or an event (`traceparent`, `tracestate` when the
 * span has one). The platform speaks W3C trace context only: these helpers write and read it
 * themselves, so a gateway hop, a batch job and an event carry the same two fields, and the per-request
 * path skips the propagator machinery (carrier getters/setters, the baggage propagator).
 */
export interface TraceCarrier {
  traceparent: string;
  tracestate?: string;
}

/**
 * The span context to propagate from `ctx`: none while tracing is off in this process; with tracing
 * on, also that of a span the sampler dropped (flags 00), so the next hop drops the trace too.
 */
function propagatedSpanContext(ctx: Context): SpanContext | undefined {
  if (!tracer) return undefined;
  const sc = trace.getSpan(ctx)?.spanContext();
  return sc && isSpanContextValid(sc) ? sc : undefined;
}

function traceparentOf(sc: SpanContext): string {
  return `00-${sc.traceId}-${sc.spanId}-${sc.traceFlags & TraceFlags.SAMPLED ? '01' : '00'}`;
}

/**
 * The one W3C trace-context writer of the platform: adds `traceparent` (and `tracestate`) of the span
 * of `ctx` to `carrier` (request headers); leaves it untouched when tracing is off or `ctx` holds no
 * span. Returns whether it wrote.
 */
export function injectTraceContext(carrier: Record<string, unknown>, ctx: Context = context.active()): boolean {
  const sc = propagatedSpanContext(ctx);
  if (!sc) return false;
  writeCarrier(carrier, sc);
  return true;
}

function writeCarrier(carrier: Record<string, unknown>, sc: SpanContext): void {
  carrier.traceparent = traceparentOf(sc);
  const state = sc.traceState?.serialize();
  if (state) carrier.tracestate = state;
}

/** The trace context of `ctx` for a job payload or an event; undefined when tracing is off (or no span). */
export function traceCarrierOf(ctx: Context = context.active()): TraceCarrier | undefined {
  const sc = propagatedSpanContext(ctx);
  if (!sc) return undefined;
  const state = sc.traceState?.serialize();
  return state ? { traceparent: traceparentOf(sc), tracestate: state } : { traceparent: traceparentOf(sc) };
}

/** The W3C trace context of the active span (`{ traceparent, tracestate? }`), empty when none. */
export function currentTraceHeaders(ctx: Context = context.active()): Record<string, string> {
  return { ...traceCarrierOf(ctx) };
}

/** version 00: exactly four fields; a later version may append fields (W3C trace-context, 4.3). */
const TRACEPARENT = /^([\da-f]{2})-([\da-f]{32})-([\da-f]{16})-([\da-f]{2})(-.*)?$/;

/**
 * The one reader: `ctx` continued by the remote parent a carrier holds (`traceparent`, optional
 * `tracestate`: request headers, job payload or event data); `ctx` itself when the carrier holds no
 * valid trace context. Works with tracing off too (the context is then simply never used).
 */
export function contextFromCarrier(carrier: object | null | undefined, ctx: Context = context.active()): Context {
  const fields = carrier as { traceparent?: unknown; tracestate?: unknown } | null | undefined;
  const header = fields?.traceparent;
  if (typeof header !== 'string') return ctx;
  const m = TRACEPARENT.exec(header.trim());
  if (!m || m[1] === 'ff' || (m[1] === '00' && m[5] !== undefined)) return ctx;
  const state = fields?.tracestate;
  const spanContext: SpanContext = {
    traceId: m[2]!,
    spanId: m[3]!,
    traceFlags: parseInt(m[4]!, 16),
    isRemote: true,
    ...(typeof state === 'string' && state ? { traceState: createTraceState(state) } : {}),
  };
  return isSpanContextValid(spanContext) ? trace.setSpanContext(ctx, spanContext) : ctx;
}

