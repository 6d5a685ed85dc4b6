import { trace, type Tracer } from '@opentelemetry/api'

/**
 * Whether tracing is on in this process. Every instrumented place asks `tracerFor` first and does nothing
 * more when it answers null: with tracing off (the default) a webhook or a message costs one check.
 */
let on = false
const tracers = new Map<string, Tracer>()

/** The service's tracer while tracing is on; null while it is off. */
export function tracerFor(service: string): Tracer | null {
  if (!on) return null
  let tracer = tracers.get(service)
  if (tracer === undefined) {
    tracer = trace.getTracer(service)
    tracers.set(service, tracer)
  }
  return tracer
}

/** @internal set by startTracing / stopTracing. */
export function setTracing(enabled: boolean): void {
  on = enabled
  tracers.clear()
}
