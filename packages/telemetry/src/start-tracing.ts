import { context, propagation, trace } from '@opentelemetry/api'
import type { SpanExporter } from '@opentelemetry/sdk-trace'
import { setTracing } from './tracer.ts'

export interface TracingOptions {
  /** `service.name` of every span this process exports. */
  service: string
  /** Where spans go. Unset: OTLP over HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (the exporter reads the OTEL_* variables). */
  exporter?: SpanExporter
  /** Export each span as it ends (tests) instead of in batches (production). */
  immediate?: boolean
}

let stop: (() => Promise<void>) | null = null

/**
 * Turns tracing on for this process: an SDK tracer provider with the W3C trace-context propagator and an
 * AsyncLocalStorage context manager, registered globally. The SDK is loaded only here, so a process
 * without tracing never loads it. A second call replaces the first.
 */
export async function startTracing(options: TracingOptions): Promise<void> {
  await stopTracing()
  const [{ TracerProvider, BatchSpanProcessor, SimpleSpanProcessor }, { resourceFromAttributes }, { W3CTraceContextPropagator }, { AsyncLocalStorageContextManager }] =
    await Promise.all([import('@opentelemetry/sdk-trace'), import('@opentelemetry/resources'), import('@opentelemetry/core'), import('@opentelemetry/context-async-hooks')])
  const exporter = options.exporter ?? new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter()
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.service }),
    spanProcessors: [options.immediate ? new SimpleSpanProcessor({ exporter }) : new BatchSpanProcessor({ exporter })],
  })
  const contextManager = new AsyncLocalStorageContextManager().enable()
  context.setGlobalContextManager(contextManager)
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  trace.setGlobalTracerProvider(provider)
  setTracing(true)
  stop = async () => {
    setTracing(false)
    await provider.shutdown()
    trace.disable()
    propagation.disable()
    context.disable()
  }
}

/** Sends the spans still held, then turns tracing off (nothing when it is off). */
export async function stopTracing(): Promise<void> {
  const current = stop
  stop = null
  await current?.()
}

/**
 * Tracing as the environment asks: on when OTEL_EXPORTER_OTLP_ENDPOINT is set (an http or https URL; the
 * exporter sends to `<endpoint>/v1/traces`, or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given), off otherwise.
 * Throws a sentence naming the variable when its value is not a URL.
 */
export async function startTracingFromEnvironment(service: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT
  if (!endpoint) return false
  if (!/^https?:\/\/\S+$/.test(endpoint)) {
    throw new Error(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http or https URL (the OTLP collector, e.g. http://127.0.0.1:4318), not ${JSON.stringify(endpoint)}`)
  }
  await startTracing({ service })
  return true
}
