// The pages' one API client: JSON calls to the gateway, typed by api-routes.ts. A 401, "pending approval" and
// "banned" leave the page, as the gateway's own pages do; any other refusal throws ApiError with its reason.
import { bannedLoginUrl } from './banned.ts'
import type { ResponseOf, Route, Routes } from './api-routes.ts'

class ApiError extends Error {
  readonly status: number

  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

type Field<R extends Route, K extends string> = Routes[R] extends Record<K, infer V> ? V : never
type Options<R extends Route> = { params?: Field<R, 'params'>; query?: Field<R, 'query'>; body?: Field<R, 'body'> }

interface Refusal {
  success?: boolean
  error?: unknown
  reason?: unknown
}

/** The path with its `:name` parameters filled in and its query appended. */
function urlOf(path: string, params: Record<string, string> | undefined, query: Record<string, string | undefined> | undefined): string {
  const filled = path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params?.[name] ?? ''))
  const defined = Object.entries(query ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined)
  return defined.length === 0 ? filled : `${filled}?${new URLSearchParams(defined)}`
}

async function send(method: string, url: string, body: unknown): Promise<Response> {
  try {
    return await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    })
  } catch {
    throw new ApiError(0, 'The server cannot be reached. Check your connection and try again.')
  }
}

/**
 * The one fetch wrapper: a JSON call to `url`. A 401, "pending approval" or "banned" leaves the page; any
 * other refusal throws ApiError with its reason. Untyped: every page calls it through the typed `api()` below
 * (a route the pages call is listed in api-routes.ts).
 */
async function request(method: string, url: string, body?: unknown): Promise<unknown> {
  const response = await send(method, url, body)
  const payload = (await response.json().catch(() => null)) as Refusal | null
  if (response.status === 401) {
    window.location.assign('/login.html?error=session')
    throw new ApiError(401, 'Authentication required')
  }
  if (response.status === 403 && payload?.error === 'Account pending approval') {
    window.location.assign('/pending-approval.html')
    throw new ApiError(403, payload.error)
  }
  if (response.status === 403 && payload?.error === 'Account banned') {
    window.location.assign(bannedLoginUrl(payload.reason))
    throw new ApiError(403, payload.error)
  }
  if (!response.ok || payload === null || payload.success === false) {
    throw new ApiError(response.status, typeof payload?.error === 'string' ? payload.error : `the server answered ${response.status}`)
  }
  return payload
}

/** One call: `api('GET /api/trades', { query: { limit: '20' } })`. */
export async function api<R extends Route>(route: R, options: Options<R> = {}): Promise<ResponseOf<R>> {
  const [method = 'GET', path = '/'] = route.split(' ')
  const url = urlOf(path, options.params as Record<string, string> | undefined, options.query as Record<string, string | undefined> | undefined)
  // The gateway answers with the route's response schema (the services validate what they send).
  return (await request(method, url, options.body)) as ResponseOf<R>
}

/** 403 answers after which the page has already been sent elsewhere. */
const LEAVING = new Set(['Account pending approval', 'Account banned'])

/** True when the page is already leaving because of this error (sign-in, pending or banned page). */
export function isLeaving(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 401 || (error.status === 403 && LEAVING.has(error.message)))
}

/** An error's message for a sentence. */
export const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))
