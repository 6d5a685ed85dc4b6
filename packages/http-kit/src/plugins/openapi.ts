import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'

export interface OpenApiOptions {
  title: string
  description?: string
  version?: string
  /** Only routes under these prefixes are documented (default `/api/`). */
  prefixes?: readonly string[]
  /** Adds what route schemas cannot say (a body read raw, a socket): gets the built document, returns it. */
  extend?: (document: OpenApiDocumentObject) => OpenApiDocumentObject
}

/** The document @fastify/swagger builds, as far as `extend` needs it. */
export interface OpenApiDocumentObject {
  paths?: Record<string, Record<string, Record<string, unknown>>>
  [key: string]: unknown
}

/**
 * Builds this service's OpenAPI 3 document from its route schemas and serves it at `GET /openapi.json`,
 * where the gateway collects it for `/docs`. Register before the routes it should describe.
 */
export const openapiPlugin = fp(
  async (app: FastifyInstance, options: OpenApiOptions) => {
    const prefixes = options.prefixes ?? ['/api/']
    const extend = options.extend
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: { title: options.title, description: options.description, version: options.version ?? '1.0.0' },
      },
      hideUntagged: false,
      ...(extend ? { transformObject: (built) => extend(('openapiObject' in built ? built.openapiObject : built) as OpenApiDocumentObject) as never } : {}),
      transform: ({ schema, url }) => ({
        schema: { ...schema, hide: !prefixes.some((prefix) => url.startsWith(prefix)) },
        url,
      }),
    })
    app.get('/openapi.json', { logLevel: 'warn' }, async () => app.swagger())
  },
  { name: 'openapi' },
)
