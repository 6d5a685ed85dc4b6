import { ROOT_CONTEXT, context, propagation, trace, type Context, type Span, type TextMapGetter } from '@opentelemetry/api'

/** The W3C header carrying a span's trace and id between processes. */
export const TRACEPARENT = 'traceparent'

/** The `traceparent` value naming `span` as the parent of what the receiver does. */
export function traceparentOf(span: Span): string | undefined {
  const carrier: Record<string, string> = {}
  propagation.inject(trace.setSpan(context.active(), span), carrier)
  return carrier[TRACEPARENT]
}

/** The context a received `traceparent` names (the root context when there is none or it is malformed). */
export function contextFromTraceparent(traceparent: string | undefined | null): Context {
  if (!traceparent) return ROOT_CONTEXT
  return propagation.extract(ROOT_CONTEXT, traceparent, single)
}

const single: TextMapGetter<string> = {
  keys: () => [TRACEPARENT],
  get: (carrier, key) => (key === TRACEPARENT ? carrier : undefined),
}
