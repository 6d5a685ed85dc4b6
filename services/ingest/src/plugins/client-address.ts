import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { clientAddressHook } from '../http/client-address.ts'
import { sourceAllowList } from '../http/source-allow-list.ts'
import { Refusal } from '../refusal.ts'

export interface ClientAddressPluginOptions {
  internalAuthSecret: string
  /** INGEST_ALLOWED_SOURCES; unset lets every address post. */
  allowedSources: string | undefined
}

/** Who sent each webhook (`request.clientAddress`), and the refusal of senders outside the allow-list. */
export const clientAddressPlugin = fp(
  async (app: FastifyInstance, options: ClientAddressPluginOptions) => {
    clientAddressHook(app, options.internalAuthSecret)
    const isAllowedSource = sourceAllowList(options.allowedSources)
    if (!isAllowedSource) return
    app.addHook('preValidation', async (request) => {
      if (!isAllowedSource(request.clientAddress)) throw new Refusal(403, 'forbidden', 'Source address not allowed to post alerts')
    })
  },
  { name: 'ingest-client-address' },
)
