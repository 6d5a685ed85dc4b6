import { GATEWAY_PATHS, withOperationIds } from './gateway-paths.ts'

/** An OpenAPI 3 document, as far as merging needs to know it. */
export interface OpenApiDocument {
  openapi: string
  info: { title: string; version: string; description?: string }
  paths: Record<string, unknown>
  components?: { schemas?: Record<string, unknown>; securitySchemes?: Record<string, unknown> }
  security?: Record<string, string[]>[]
  tags?: { name: string; description?: string }[]
}

export interface DocSource {
  service: string
  url: string
}

const FETCH_TIMEOUT_MS = 2_000
const FRESH_FOR_MS = 30_000

function isDocument(value: unknown): value is OpenApiDocument {
  const doc = value as Partial<OpenApiDocument> | null
  return typeof doc === 'object' && doc !== null && typeof doc.paths === 'object' && doc.paths !== null
}

/**
 * Collects every service's `GET /openapi.json` and merges them into one document for `/docs`. A service
 * that is down keeps its last good document (or is named as unavailable) instead of breaking the page.
 * Documents are refreshed at most every 30 s, on demand.
 */
export function createDocsAggregator(sources: readonly DocSource[], publicUrl: string) {
  const lastGood = new Map<string, OpenApiDocument>()
  let merged: OpenApiDocument | null = null
  let mergedAt = 0
  let refreshing: Promise<OpenApiDocument> | null = null

  async function fetchDocument(source: DocSource): Promise<OpenApiDocument | null> {
    try {
      const response = await fetch(new URL('/openapi.json', source.url), { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) })
      if (!response.ok) return null
      const body: unknown = await response.json()
      return isDocument(body) ? body : null
    } catch {
      return null
    }
  }

  async function rebuild(): Promise<OpenApiDocument> {
    const documents = await Promise.all(sources.map(async (source) => [source, await fetchDocument(source)] as const))
    const unavailable: string[] = []
    const paths: Record<string, unknown> = { ...GATEWAY_PATHS }
    const schemas: Record<string, unknown> = {}
    const tags = new Map<string, { name: string; description?: string }>()
    for (const [source, fresh] of documents) {
      if (fresh) lastGood.set(source.service, fresh)
      const doc = fresh ?? lastGood.get(source.service)
      if (!doc) {
        unavailable.push(source.service)
        continue
      }
      Object.assign(paths, doc.paths)
      for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) schemas[name] ??= schema
      for (const tag of doc.tags ?? []) tags.set(tag.name, tag)
    }
    const note = unavailable.length > 0 ? `\n\nNot listed (service unavailable just now): ${unavailable.join(', ')}.` : ''
    return {
      openapi: '3.0.3',
      info: {
        title: 'Signals API',
        version: '1.0.0',
        description:
          'The webhook (`/webhook/alert`) and sign-in (`/auth/*`) are public. Every other /api call needs a signed-in, approved session (the `signals.sid` cookie set by /auth/google); ' +
          'without one it answers 401 `{success:false, error:"Authentication required"}`, and 403 ' +
          '`{success:false, error:"Account pending approval"}` until an administrator approves the account. ' +
          'Calls that change state must come from the site itself (same origin).' +
          note,
      },
      servers: [{ url: publicUrl }],
      paths: withOperationIds(paths),
      components: { schemas, securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'signals.sid' } } },
      security: [{ session: [] }],
      tags: [...tags.values()],
    } as OpenApiDocument
  }

  return {
    /** The merged document, refreshed when older than 30 s (one refresh at a time). */
    async current(): Promise<OpenApiDocument> {
      if (merged && Date.now() - mergedAt < FRESH_FOR_MS) return merged
      refreshing ??= rebuild().finally(() => {
        refreshing = null
      })
      const doc = await refreshing
      merged = doc
      mergedAt = Date.now()
      return doc
    },
  }
}
