import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import swagger from '@fastify/swagger'
import { routeUnder } from '@signals/http-kit'
import swaggerUi from '@fastify/swagger-ui'
import { createDocsAggregator, type DocSource, type OpenApiDocument } from './aggregate.ts'

/**
 * `/docs`: Swagger UI over one document merged from every service's `/openapi.json` (`/docs/json`).
 * Public: it describes the API, it grants nothing.
 */
export const docsRoutes: FastifyPluginAsyncTypebox<{ sources: DocSource[]; publicUrl: string }> = async (scope, options) => {
  const aggregator = createDocsAggregator(options.sources, options.publicUrl)
  let latest: OpenApiDocument | null = null
  // Swagger UI's JSON route is synchronous about its document: fetch it first, then hand it over.
  scope.addHook('onRequest', async (request) => {
    if (routeUnder(request, '/docs/json') || routeUnder(request, '/docs/yaml')) latest = await aggregator.current()
  })
  await scope.register(swagger, { openapi: { openapi: '3.0.3', info: { title: 'Signals API', version: '1.0.0' } } })
  const https = options.publicUrl.startsWith('https://')
  await scope.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    // Swagger UI's own policy (script and style hashes); it only upgrades requests when we are on https.
    transformStaticCSP: (header) => (https ? header : header.replace(/\s*upgrade-insecure-requests;?/, '')),
    transformSpecification: () => latest ?? { openapi: '3.0.3', info: { title: 'Signals API', version: '1.0.0' }, paths: {} },
    transformSpecificationClone: false,
    uiConfig: { deepLinking: false },
  })
}
