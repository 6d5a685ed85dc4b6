import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { SpanKind, SpanStatusCode, TRACEPARENT, context, contextFromTraceparent, trace, traceparentOf, tracerFor, type Span } from '@signals/telemetry'

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's server span while tracing is on; null otherwise. */
    span: Span | null
  }
}

/**
 * A server span per request while tracing is on (startTracing before the app is built), continuing the
 * caller's trace when a `traceparent` header names one. The route's handler runs inside the span, so
 * what it publishes or calls joins the trace. With tracing off no hook is added.
 */
export const tracingPlugin = fp(
  async (app: FastifyInstance, options: { service: string }) => {
    const tracer = tracerFor(options.service)
    app.decorateRequest('span', null)
    if (tracer === null) return
    app.addHook('onRequest', (request, _reply, done) => {
      const header = request.headers[TRACEPARENT]
      const route = request.routeOptions.url ?? 'unmatched'
      request.span = tracer.startSpan(
        `${request.method} ${route}`,
        { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, 'http.route': route, 'request.id': request.id } },
        contextFromTraceparent(typeof header === 'string' ? header : undefined),
      )
      done()
    })
    // Called back, not async: the handler is called from `done`, so it runs inside the span's context.
    app.addHook('preHandler', (request, _reply, done) => {
      if (request.span === null) return done()
      context.with(trace.setSpan(context.active(), request.span), done)
    })
    app.addHook('onResponse', (request, reply, done) => {
      const span = request.span
      if (span !== null) {
        span.setAttribute('http.response.status_code', reply.statusCode)
        if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
        span.end()
      }
      done()
    })
  },
  { name: 'tracing' },
)

/** Headers that carry the request's trace to a service it calls (none while tracing is off). */
export function traceHeadersOf(request: FastifyRequest): Record<string, string> {
  const traceparent = request.span === null ? undefined : traceparentOf(request.span)
  return traceparent === undefined ? {} : { [TRACEPARENT]: traceparent }
}

/** This request's W3C traceparent while tracing is on, to keep with what it wrote (undefined otherwise). */
export function traceparentOfRequest(request: FastifyRequest): string | undefined {
  return request.span === null ? undefined : traceparentOf(request.span)
}

/** Links a trace kept earlier (its W3C traceparent) to this request's span: what the request acts on came from there. */
export function linkTrace(request: FastifyRequest, traceparent: string | null, label: string): void {
  const linked = traceparent === null ? undefined : trace.getSpanContext(contextFromTraceparent(traceparent))
  if (linked !== undefined) request.span?.addLink({ context: linked, attributes: { 'signals.link': label } })
}
