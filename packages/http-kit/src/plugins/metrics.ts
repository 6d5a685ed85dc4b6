import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import { mayReadInternals, type InternalSurfaces } from '../internal-token.ts'
import { registerLiveHeapGauge } from './live-heap.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's Prometheus registry; services add their own counters to it. */
    metrics: Registry
  }
}

/**
 * `GET /metrics` in Prometheus text format: request counts and latencies by route and status, the
 * process defaults, and whatever the service registers on `app.metrics`. One registry per app, so tests
 * that build several apps do not collide.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, options: { service: string; internalSurfaces?: InternalSurfaces }) => {
    const registry = new Registry()
    registry.setDefaultLabels({ service: options.service })
    collectDefaultMetrics({ register: registry })
    const stopLiveHeap = registerLiveHeapGauge(registry)
    app.addHook('onClose', async () => stopLiveHeap())
    const requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered',
      labelNames: ['method', 'route', 'status_code'] as const,
      registers: [registry],
    })
    const latency = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency',
      labelNames: ['method', 'route'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    })
    app.decorate('metrics', registry)

    // prom-client hashes the label object on every call; a route's series are looked up once instead.
    const series = new Map<string, { requests: { inc(): void }; latency: { observe(seconds: number): void } }>()
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched'
      if (route !== '/metrics') {
        const key = `${request.method} ${reply.statusCode} ${route}`
        let routeSeries = series.get(key)
        if (routeSeries === undefined) {
          routeSeries = {
            requests: requests.labels({ method: request.method, route, status_code: reply.statusCode }),
            latency: latency.labels({ method: request.method, route }),
          }
          series.set(key, routeSeries)
        }
        routeSeries.requests.inc()
        routeSeries.latency.observe(reply.elapsedTime / 1000)
      }
      done()
    })

    app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
      if (!mayReadInternals(request, options.internalSurfaces)) return reply.code(401).send({ success: false, error: 'Metrics token required' })
      return reply.type(registry.contentType).send(await registry.metrics())
    })
  },
  { name: 'metrics' },
)
