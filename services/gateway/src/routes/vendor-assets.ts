import { createRequire } from 'node:module'
import { dirname } from 'node:path'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import fastifyStatic from '@fastify/static'

const require = createRequire(import.meta.url)

/**
 * Third-party browser code served from the installed npm package (no CDN: the pages load only from us,
 * `script-src 'self'`): uPlot's script and stylesheet under /vendor/uplot/.
 */
export const vendorAssets: FastifyPluginAsyncTypebox = async (app) => {
  const uplotDist = dirname(require.resolve('uplot/dist/uPlot.iife.min.js'))
  await app.register(fastifyStatic, {
    root: uplotDist,
    prefix: '/vendor/uplot/',
    decorateReply: false,
    allowedPath: (path) => path === '/uPlot.iife.min.js' || path === '/uPlot.min.css',
    maxAge: '1h',
  })
}
