import { TextDecoder } from 'node:util'
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'

declare module 'fastify' {
  interface FastifyRequest {
    /** The Content-Type header as the sender wrote it (the one Fastify sees is normalized). */
    originalContentType: string | null
  }
}

const MEDIA_TYPE = /^[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+$/

/**
 * One raw-buffer capture for every content type, replacing Fastify's parsers: alerting platforms send
 * JSON as text/plain, text as JSON, form bodies, or no content type at all, and the body is parsed by
 * what it holds, not by what it claims. A malformed Content-Type is replaced by
 * `application/octet-stream` before Fastify reads it, so it cannot turn an alert into a 415.
 */
export const rawBodyPlugin = fp(
  async (app: FastifyInstance, options: { bodyLimit: number }) => {
    app.decorateRequest('originalContentType', null)
    app.addHook('onRequest', (request, _reply, done) => {
      const header = request.headers['content-type']
      if (header !== undefined) {
        request.originalContentType = header
        // The common case is already a bare, valid media type.
        if (header === 'application/json' || header === 'text/plain') return done()
        const mediaType = header.split(';', 1)[0]?.trim().toLowerCase() ?? ''
        request.headers['content-type'] = MEDIA_TYPE.test(mediaType) ? mediaType : 'application/octet-stream'
      }
      done()
    })
    app.removeAllContentTypeParsers()
    const keepBuffer = (_request: unknown, body: Buffer | string, done: (error: null, body: Buffer | string) => void) => done(null, body)
    // The catch-all alone would do, but Fastify caches the parser only for types registered by name: the
    // common ones are named so their lookup does not parse the header again on every request.
    app.addContentTypeParser(['application/json', 'text/plain', 'application/x-www-form-urlencoded'], { parseAs: 'buffer', bodyLimit: options.bodyLimit }, keepBuffer)
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: options.bodyLimit }, keepBuffer)
  },
  { name: 'raw-body' },
)

/** The charset parameter of a Content-Type header, lower-cased, if any. */
export function charsetOf(contentType: string | null): string | undefined {
  const match = contentType === null || !contentType.includes(';') ? null : /;\s*charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType)
  return match?.[1]?.toLowerCase()
}

const UTF8 = new Set(['utf-8', 'utf8', 'unicode-1-1-utf-8'])

/** Text of a body in its declared charset (UTF-8 when none or unknown); a BOM is dropped. */
export function decodeBody(body: Buffer, charset: string | undefined): string {
  // Buffer's UTF-8 decoding replaces malformed sequences with U+FFFD as TextDecoder does, without a decoder per request.
  const text = charset === undefined || UTF8.has(charset) ? body.toString('utf8') : decoderFor(charset).decode(body)
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}

function decoderFor(charset: string): TextDecoder {
  try {
    return new TextDecoder(charset)
  } catch {
    return new TextDecoder('utf-8')
  }
}
