import { SpanStatusCode, context, trace, type Attributes, type Span } from '@opentelemetry/api'
import { tracerFor } from './tracer.ts'

/**
 * Runs `work` inside a span named `name` of `service`'s tracer, a child of the active span, and ends it
 * with `work`'s outcome (an error status with the message on a rejection). With tracing off it is
 * `work()` and nothing else.
 */
export function withSpan<T>(service: string, name: string, attributes: Attributes, work: (span: Span | null) => Promise<T>): Promise<T> {
  const tracer = tracerFor(service)
  if (tracer === null) return work(null)
  const span = tracer.startSpan(name, { attributes })
  return context.with(trace.setSpan(context.active(), span), async () => {
    try {
      return await work(span)
    } catch (error) {
      failed(span, error)
      throw error
    } finally {
      span.end()
    }
  })
}

/** Marks the span failed with the error's message. */
export function failed(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) })
}
