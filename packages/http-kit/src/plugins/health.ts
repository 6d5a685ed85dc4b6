import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import Type from 'typebox'
import { mayReadInternals, type InternalSurfaces } from '../internal-token.ts'

export type ReadinessCheck = () => Promise<boolean>

declare module 'fastify' {
  interface FastifyInstance {
    /** Registers a named dependency that `GET /ready` checks. */
    addReadinessCheck(name: string, check: ReadinessCheck): void
  }
}

const HealthBody = Type.Object({ status: Type.Literal('ok'), service: Type.String(), uptimeSeconds: Type.Number() })
const ReadyBody = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('unavailable')]),
  service: Type.String(),
  checks: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
})

/**
 * `GET /health`: the process answers. `GET /ready`: every registered dependency answers (503 otherwise);
 * which dependency is down is told only to whoever may read internals (a public service's token holder).
 */
export const healthPlugin = fp(
  async (app: FastifyInstance, options: { service: string; internalSurfaces?: InternalSurfaces }) => {
    const checks = new Map<string, ReadinessCheck>()
    app.decorate('addReadinessCheck', (name: string, check: ReadinessCheck) => {
      checks.set(name, check)
    })

    app.get('/health', { schema: { response: { 200: HealthBody } }, logLevel: 'warn' }, async () => ({
      status: 'ok' as const,
      service: options.service,
      uptimeSeconds: Math.round(process.uptime()),
    }))

    app.get('/ready', { schema: { response: { 200: ReadyBody, 503: ReadyBody } }, logLevel: 'warn' }, async (request, reply) => {
      const results = await Promise.all(
        [...checks].map(async ([name, check]) => [name, await check().catch(() => false)] as const),
      )
      const ready = results.every(([, ok]) => ok)
      const status = ready ? ('ready' as const) : ('unavailable' as const)
      const body = mayReadInternals(request, options.internalSurfaces)
        ? { status, service: options.service, checks: Object.fromEntries(results) }
        : { status, service: options.service }
      return reply.code(ready ? 200 : 503).send(body)
    })
  },
  { name: 'health' },
)
