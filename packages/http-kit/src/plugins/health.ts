import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import Type from 'typebox'

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
  checks: Type.Record(Type.String(), Type.Boolean()),
})

/** `GET /health`: the process answers. `GET /ready`: every registered dependency answers (503 otherwise). */
export const healthPlugin = fp(
  async (app: FastifyInstance, options: { service: string }) => {
    const checks = new Map<string, ReadinessCheck>()
    app.decorate('addReadinessCheck', (name: string, check: ReadinessCheck) => {
      checks.set(name, check)
    })

    app.get('/health', { schema: { response: { 200: HealthBody } }, logLevel: 'warn' }, async () => ({
      status: 'ok' as const,
      service: options.service,
      uptimeSeconds: Math.round(process.uptime()),
    }))

    app.get('/ready', { schema: { response: { 200: ReadyBody, 503: ReadyBody } }, logLevel: 'warn' }, async (_request, reply) => {
      const results = await Promise.all(
        [...checks].map(async ([name, check]) => [name, await check().catch(() => false)] as const),
      )
      const ready = results.every(([, ok]) => ok)
      return reply.code(ready ? 200 : 503).send({
        status: ready ? 'ready' : 'unavailable',
        service: options.service,
        checks: Object.fromEntries(results),
      })
    })
  },
  { name: 'health' },
)
