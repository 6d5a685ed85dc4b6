import type { IncomingMessage, ServerResponse } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import type { PaperMarket, RequestControls } from '@signals/dev-paper-broker/engine'
import type { ProjectXLogin } from './accounts.ts'
import { contractOfId } from './contracts.ts'
import { ENDPOINTS, type Endpoint, type EndpointContext } from './endpoints.ts'
import type { RateLimiter } from './rate-limit.ts'
import type { SessionTokens } from './tokens.ts'
import { LoginError, ok, refused, type Outcome } from './wire.ts'

export interface RestContext extends EndpointContext {
  logins: Map<string, ProjectXLogin>
  tokens: SessionTokens
  limiter: RateLimiter
  devEndpoints: boolean
  /** Test controls per endpoint (`Order/place`...): 429/5xx instead of an answer, late, cut off, delayed. */
  controls: RequestControls
  /** Sends the engine's events now (an answer held back must not hold back the events of what was done). */
  publish(): void
  /** Records an API request as it arrives, before it is carried out (endpoint and login; never a key). */
  seen(request: SeenRequest): void
}

/** An API request as the broker saw it. */
export interface SeenRequest {
  endpoint: string
  userName: string | null
}

const MAX_BODY = 16 * 1024
type Send = (status: number, body: unknown, headers?: Record<string, string>) => void

async function readJson(request: IncomingMessage, send: Send): Promise<Record<string, unknown> | null> {
  let text = ''
  for await (const chunk of request) {
    text += String(chunk)
    if (text.length > MAX_BODY) {
      send(413, { title: 'Request body too large', status: 413 })
      return null
    }
  }
  if (text.trim() === '') return {}
  try {
    const value = JSON.parse(text) as unknown
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>
    send(400, { title: 'The request body must be a JSON object', status: 400 })
  } catch {
    send(400, { title: 'Malformed JSON body', status: 400 })
  }
  return null
}

const bearer = (request: IncomingMessage): string => request.headers.authorization?.replace(/^Bearer /, '') ?? ''

/** The login a Bearer token names, or undefined when the token is missing, forged or expired. */
const sessionOf = (context: RestContext, request: IncomingMessage): ProjectXLogin | undefined => {
  const userName = context.tokens.userOf(bearer(request))
  return userName === null ? undefined : context.logins.get(userName)
}

async function loginKey(context: RestContext, request: IncomingMessage, send: Send): Promise<void> {
  const body = await readJson(request, send)
  if (!body) return
  context.seen({ endpoint: 'Auth/loginKey', userName: typeof body.userName === 'string' ? body.userName : null })
  const login = typeof body.userName === 'string' ? context.logins.get(body.userName) : undefined
  if (!login || login.apiKey !== body.apiKey) return send(200, refused(LoginError.InvalidCredentials, 'Invalid user name or API key', { token: null }))
  send(200, ok({ token: context.tokens.issue(login.userName) }))
}

/** `POST /api/<endpoint>`: Bearer token (401 without a valid one), the rate limit (429), then the endpoint. */
async function apiRequest(context: RestContext, endpoint: string, request: IncomingMessage, send: Send): Promise<void> {
  const body = await readJson(request, send)
  if (!body) return
  const login = sessionOf(context, request)
  context.seen({ endpoint, userName: login?.userName ?? null })
  if (!login) return send(401, { title: 'Unauthorized', status: 401 })
  if (!context.limiter.take(login.userName)) {
    const seconds = context.limiter.retryAfter(login.userName)
    return send(429, { title: 'Too Many Requests', status: 429, detail: `rate limit exceeded; retry in ${seconds} s` }, { 'retry-after': String(seconds) })
  }
  const handler: Endpoint | undefined = endpoint === 'Auth/validate' ? () => ok({ newToken: context.tokens.issue(login.userName) }) : ENDPOINTS[endpoint]
  if (!handler) return send(404, { title: `Unknown endpoint /api/${endpoint}`, status: 404 })
  await controlled(context, endpoint, request, send, () => handler(context, login, body))
}

/**
 * Carries the request out and answers it, unless a test control says otherwise: a 429 or 5xx instead
 * (or after carrying it out: `carriedOut`), a refusal in ProjectX's words, carried out late (`late`: after
 * `afterMs` or when released), answered late or never after carrying it out (`unanswered`), or the
 * connection cut (`drop`). A delay holds the answer back, not the request.
 */
async function controlled(context: RestContext, endpoint: string, request: IncomingMessage, send: Send, carryOut: () => Outcome): Promise<void> {
  const answer = context.controls.answerFor(endpoint, undefined)
  if (answer?.kind === 'late') await new Promise<void>((resolve) => context.controls.hold(endpoint, resolve, answer.afterMs))
  if (answer?.kind === 'unanswered') {
    // Carried out now; the answer `afterMs` later, or never (the request left open until the client gives up).
    const result = carryOut()
    context.publish()
    if (answer.afterMs !== null) setTimeout(() => send(200, result), answer.afterMs)
    return
  }
  const result = answer === null || answer.kind === 'late' || ('carriedOut' in answer && answer.carriedOut) ? carryOut() : null
  context.publish()
  await sleep(context.controls.delayOf(endpoint))
  if (answer === null || answer.kind === 'late') return send(200, result)
  if (answer.kind === 'drop') return void request.socket.destroy()
  if (answer.kind === 'status') return send(answer.status, { title: answer.text, status: answer.status })
  // A queued refusal is answered in ProjectX's words; Tradovate's penalty tickets have no ProjectX form: a 429.
  const { failureReason, failureText } = answer.body as { failureReason?: unknown; failureText?: unknown }
  if (typeof failureText !== 'string') return send(429, { title: 'Too Many Requests', status: 429 })
  send(200, refused(Number(failureReason) || 2, failureText))
}

/** A contract named as the Tradovate face names it (`MNQZ6`) or by its ProjectX id (`CON.F.US.MNQ.Z26`). */
const contractName = (context: RestContext, symbol: string): string => contractOfId(symbol, context.now())?.name ?? symbol

type DevEndpoint = (context: RestContext, market: PaperMarket, body: Record<string, unknown>) => { status: number; body: unknown }

/** The development endpoints, the same as the Tradovate face's: prices, liquidity, partial fills. */
const DEV: Readonly<Record<string, DevEndpoint>> = {
  '/dev/prices': (context, market, body) => {
    if (typeof body.symbol !== 'string') return { status: 400, body: { errorText: 'symbol is required (a dated contract such as MNQZ6, or CON.F.US.MNQ.Z26)' } }
    if (typeof body.price !== 'string' && typeof body.price !== 'number') return { status: 400, body: { errorText: 'price is required (decimal text such as "21000.25")' } }
    const name = contractName(context, body.symbol)
    const error = market.setPrice(name, String(body.price))
    return error ? { status: 400, body: { errorText: error } } : { status: 200, body: { symbol: name.toUpperCase(), price: market.price(name) } }
  },
  '/dev/liquidity': (context, market, body) => {
    if (typeof body.symbol !== 'string') return { status: 400, body: { errorText: 'symbol is required (a dated contract such as MNQZ6)' } }
    if (body.lots !== null && typeof body.lots !== 'number') return { status: 400, body: { errorText: 'lots is required (a whole number of at least 1, or null for no limit)' } }
    const error = market.setLiquidity(contractName(context, body.symbol), body.lots)
    return error ? { status: 400, body: { errorText: error } } : { status: 200, body: { symbol: body.symbol, lots: body.lots } }
  },
  '/dev/partial-fills': (_context, market, body) => {
    if (!Number.isSafeInteger(body.orderId)) return { status: 400, body: { errorText: 'orderId is required (the id of a working order)' } }
    if (typeof body.lots !== 'number') return { status: 400, body: { errorText: 'lots is required (a whole number of at least 1)' } }
    const error = market.splitNextFill(null, body.orderId as number, body.lots)
    return error ? { status: 400, body: { errorText: error } } : { status: 200, body: { orderId: body.orderId, lots: body.lots } }
  },
}

/** The REST side: `/api/Auth/loginKey`, `/api/<endpoint>` with a Bearer token, and (outside production) `/dev/*`. */
export async function handleRest(context: RestContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const send: Send = (status, body, headers = {}) => {
    if (!response.headersSent) response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body))
  }
  const path = (request.url ?? '').split('?')[0] ?? ''
  const method = request.method ?? 'GET'
  if (path === '/api/Auth/loginKey' && method === 'POST') return loginKey(context, request, send)
  if (path.startsWith('/api/') && method === 'POST') return apiRequest(context, path.slice('/api/'.length), request, send)
  const dev = context.devEndpoints ? DEV[path] : undefined
  if (dev && method === 'GET' && path === '/dev/prices') return send(200, { prices: context.market.prices() })
  if (dev && method === 'POST') {
    const body = await readJson(request, send)
    if (!body) return
    const answer = dev(context, context.market, body)
    return send(answer.status, answer.body)
  }
  send(404, { title: 'Not found', status: 404 })
}
