import type { IncomingMessage, ServerResponse } from 'node:http'
import { ACCESS_TOKEN_PATH, RENEW_TOKEN_PATH, type AccessTokenRequest, type AccessTokenResponse } from '@signals/tradovate-wire'
import { endpointOf, parseControlRequest } from './control-requests.ts'
import type { RequestControls } from './controls.ts'
import type { Handler } from './endpoints.ts'
import type { PaperMarket } from './market.ts'
import type { PaperAccount, PaperLogin, SeenRequest } from './paper-account.ts'
import type { IssuedTokens, TokenStore } from './tokens.ts'
import { setTimeout as sleep } from 'node:timers/promises'

export interface RestContext {
  logins: Map<string, PaperLogin>
  tokens: TokenStore
  controls: RequestControls
  market: PaperMarket
  /** The endpoints served after login, the same table as the socket's. */
  endpoints: Record<string, Handler>
  /** Development endpoints (`/dev/prices`, `/dev/orders`, `/dev/liquidity`, `/dev/partial-fills`, `/dev/controls`); off when false. */
  devEndpoints: boolean
  seen(request: SeenRequest): void
  tokenRequests: { name: string; ok: boolean }[]
}

const MAX_BODY = 16 * 1024
const REQUIRED_FIELDS = ['name', 'password'] as const

type Send = (status: number, body: unknown) => void

async function readJson(request: IncomingMessage, send: Send): Promise<{ value: unknown } | null> {
  let text = ''
  for await (const chunk of request) {
    text += String(chunk)
    if (text.length > MAX_BODY) {
      send(413, { errorText: 'Request too large' })
      return null
    }
  }
  if (text.trim() === '') return { value: {} }
  try {
    return { value: JSON.parse(text) as unknown }
  } catch {
    send(400, { errorText: 'Malformed JSON' })
    return null
  }
}

/**
 * Answers an interference (penalty, 429, 5xx) when one is queued; true when it did. The socket-only kinds,
 * if a test queues them here: `late` waits, then carries the request out; `drop` cuts the connection.
 */
async function interfered(context: RestContext, endpoint: string, ticket: unknown, request: IncomingMessage, send: Send): Promise<boolean> {
  const answer = context.controls.answerFor(endpoint, ticket)
  await sleep(context.controls.delayOf(endpoint))
  if (!answer) return false
  if (answer.kind === 'late') {
    await new Promise<void>((resolve) => context.controls.hold(endpoint, resolve, answer.afterMs))
    return false
  }
  // `unanswered` holds a socket answer; a REST request (the kind is refused for REST endpoints) is answered as usual.
  if (answer.kind === 'unanswered') return false
  if (answer.kind === 'drop') request.socket.destroy()
  // Tradovate issues penalty tickets and command refusals as HTTP 200.
  else if (answer.kind !== 'status') send(200, answer.body)
  else send(answer.status, { errorText: answer.text })
  return true
}

const tokenAnswer = ({ token, mdToken, session }: IssuedTokens, login: PaperLogin): AccessTokenResponse => ({
  accessToken: token,
  mdAccessToken: mdToken,
  expirationTime: new Date(session.expiresAt).toISOString(),
  userStatus: 'Active',
  userId: login.userId,
  name: login.name,
  hasLive: false,
})

async function accessTokenRequest(context: RestContext, request: IncomingMessage, send: Send): Promise<void> {
  const parsed = await readJson(request, send)
  if (!parsed) return
  const body = (typeof parsed.value === 'object' && parsed.value !== null ? parsed.value : {}) as Partial<AccessTokenRequest>
  // The tutorial sends the ticket as a Bearer header; the penalty page adds it to the body. Both are accepted.
  const ticket = body['p-ticket'] ?? request.headers.authorization?.replace(/^Bearer /, '')
  const { password: _password, ...withoutPassword } = body
  context.seen({ transport: 'rest', endpoint: ACCESS_TOKEN_PATH, body: withoutPassword, name: typeof body.name === 'string' ? body.name : null, ticket: typeof ticket === 'string' })
  const missing = REQUIRED_FIELDS.find((field) => typeof body[field] !== 'string' || body[field] === '')
  if (missing) return send(400, { errorText: `${missing} is required` })
  if (await interfered(context, ACCESS_TOKEN_PATH, ticket, request, send)) return
  const login = context.logins.get(body.name as string)
  // Tradovate answers a wrong login with 200 and an errorText.
  if (!login || login.password !== body.password) {
    context.tokenRequests.push({ name: String(body.name), ok: false })
    return send(200, { errorText: 'Incorrect username or password. Please try again.' })
  }
  context.tokenRequests.push({ name: login.name, ok: true })
  send(200, tokenAnswer(context.tokens.issue(login), login))
}

async function renewAccessToken(context: RestContext, request: IncomingMessage, send: Send): Promise<void> {
  const token = request.headers.authorization?.replace(/^Bearer /, '') ?? ''
  const parsed = request.method === 'POST' ? await readJson(request, send) : { value: {} }
  if (!parsed) return
  const ticket = (parsed.value as Record<string, unknown> | null)?.['p-ticket']
  const known = context.tokens.session(token)
  context.seen({ transport: 'rest', endpoint: RENEW_TOKEN_PATH, body: parsed.value, name: known?.login.name ?? null, ticket: typeof ticket === 'string' })
  if (await interfered(context, RENEW_TOKEN_PATH, ticket, request, send)) return
  const renewed = context.tokens.renew(token)
  if (!renewed) return send(401, { errorText: 'Access is denied' })
  send(200, tokenAnswer(renewed, renewed.session.login))
}

/** `POST /dev/orders {name, symbol, action, qty}`: a manual market order on the login's account, without a tag. */
async function devOrders(context: RestContext, request: IncomingMessage, send: Send): Promise<void> {
  const parsed = await readJson(request, send)
  if (!parsed) return
  const body = (parsed.value ?? {}) as { name?: unknown; accountId?: unknown; symbol?: unknown; action?: unknown; qty?: unknown }
  const login = typeof body.name === 'string' ? context.logins.get(body.name) : undefined
  // The login's first account, or the one `accountId` names.
  const account = login?.accounts.find((candidate) => body.accountId === undefined || candidate.accountId === body.accountId)
  if (!account) return send(400, { errorText: 'name must be a paper login (and accountId, when given, one of its accounts)' })
  const result = context.market.placeOrder(account.accountId, manualOrder(account, body))
  send('failureText' in result ? 400 : 200, 'failureText' in result ? { errorText: result.failureText } : result)
}

/** The `order/placeorder` body of a trader's own market order: no `clOrdId`, not automated. */
export function manualOrder(account: PaperAccount, order: { symbol?: unknown; action?: unknown; qty?: unknown }): Record<string, unknown> {
  return { accountSpec: account.accountName, accountId: account.accountId, action: order.action, symbol: order.symbol, orderQty: order.qty, orderType: 'Market', timeInForce: 'Day', isAutomated: false }
}

/** `POST /dev/liquidity {symbol, lots}`: each order of the contract fills at most `lots` per price event; `lots: null` lifts it. */
async function devLiquidity(context: RestContext, request: IncomingMessage, send: Send): Promise<void> {
  const parsed = await readJson(request, send)
  if (!parsed) return
  const body = (parsed.value ?? {}) as { symbol?: unknown; lots?: unknown }
  if (typeof body.symbol !== 'string') return send(400, { errorText: 'symbol is required (a dated contract such as MNQZ6)' })
  if (body.lots !== null && typeof body.lots !== 'number') return send(400, { errorText: 'lots is required (a whole number of at least 1, or null for no limit)' })
  const error = context.market.setLiquidity(body.symbol, body.lots)
  if (error) return send(400, { errorText: error })
  send(200, { symbol: body.symbol.toUpperCase(), lots: body.lots })
}

/** `POST /dev/partial-fills {orderId, lots}`: the order's next fill comes in parts of `lots` contracts. */
async function devPartialFills(context: RestContext, request: IncomingMessage, send: Send): Promise<void> {
  const parsed = await readJson(request, send)
  if (!parsed) return
  const body = (parsed.value ?? {}) as { orderId?: unknown; lots?: unknown }
  if (!Number.isSafeInteger(body.orderId)) return send(400, { errorText: 'orderId is required (the id of a working or suspended order)' })
  if (typeof body.lots !== 'number') return send(400, { errorText: 'lots is required (a whole number of at least 1)' })
  const error = context.market.splitNextFill(null, body.orderId as number, body.lots)
  if (error) return send(400, { errorText: error })
  send(200, { orderId: body.orderId, lots: body.lots })
}

async function devPrices(context: RestContext, request: IncomingMessage, send: Send): Promise<void> {
  if (request.method === 'GET') return send(200, { prices: context.market.prices() })
  const parsed = await readJson(request, send)
  if (!parsed) return
  const body = (parsed.value ?? {}) as { symbol?: unknown; price?: unknown }
  if (typeof body.symbol !== 'string') return send(400, { errorText: 'symbol is required (a dated contract such as MNQZ6)' })
  if (typeof body.price !== 'string' && typeof body.price !== 'number') return send(400, { errorText: 'price is required (decimal text such as "21000.25")' })
  const error = context.market.setPrice(body.symbol, String(body.price))
  if (error) return send(400, { errorText: error })
  send(200, { symbol: body.symbol.toUpperCase(), price: context.market.price(body.symbol) })
}

const DEV_ENDPOINTS: Record<string, (context: RestContext, request: IncomingMessage, send: Send) => Promise<void>> = {
  '/dev/prices': devPrices,
  '/dev/orders': devOrders,
  '/dev/liquidity': devLiquidity,
  '/dev/partial-fills': devPartialFills,
}

/**
 * Every other `/v1/<endpoint>` (`position/list`, `order/list`, `fill/list`, `cashBalance/getcashbalancesnapshot`,
 * the order commands...) as Tradovate serves it over REST: `Authorization: Bearer <access token>`, GET for
 * lists and lookups (query string), POST with a JSON body for the rest; the answer is the socket's `d`
 * with its status. An unknown or expired token is a 401.
 */
async function apiRequest(context: RestContext, endpoint: string, request: IncomingMessage, send: Send): Promise<void> {
  const handler = context.endpoints[endpoint]
  if (!handler) return send(404, { errorText: `Unknown endpoint ${endpoint}` })
  const parsed = request.method === 'POST' ? await readJson(request, send) : { value: {} }
  if (!parsed) return
  const body = (typeof parsed.value === 'object' && parsed.value !== null ? parsed.value : {}) as Record<string, unknown>
  const session = context.tokens.session(request.headers.authorization?.replace(/^Bearer /, '') ?? '')
  context.seen({ transport: 'rest', endpoint, body, name: session?.login.name ?? null, ticket: typeof body['p-ticket'] === 'string' })
  if (!session) return send(401, { errorText: 'Access is denied' })
  if (await interfered(context, endpoint, body['p-ticket'], request, send)) return
  const answer = handler(session.login, body, { query: (request.url ?? '').split('?')[1] ?? '' })
  send(answer.s, answer.d ?? null)
}

/**
 * `/dev/controls`: GET what is set up; POST `{endpoint, kind, count?, ...}` sets a control (the same as the
 * test methods `interfere` and `delay`); DELETE removes every queued control and delay. `POST
 * /dev/controls/release {endpoint}` carries out the requests a `late` control holds.
 */
async function devControls(context: RestContext, request: IncomingMessage, send: Send, path: string): Promise<void> {
  const { controls } = context
  if (path === '/dev/controls' && request.method === 'GET') return send(200, controls.state())
  if (path === '/dev/controls' && request.method === 'DELETE') {
    controls.clear()
    return send(200, controls.state())
  }
  const parsed = await readJson(request, send)
  if (!parsed) return
  if (path === '/dev/controls/release') {
    const named = endpointOf((parsed.value ?? {}) as Record<string, unknown>)
    if ('error' in named) return send(400, { errorText: named.error })
    return send(200, { endpoint: named.endpoint, released: controls.release(named.endpoint) })
  }
  const control = parseControlRequest(parsed.value)
  if ('error' in control) return send(400, { errorText: control.error })
  if ('ms' in control) controls.delay(control.endpoint, control.ms)
  else controls.interfere(control.endpoint, control.interference, control.count)
  send(200, controls.state())
}

const CONTROL_ROUTES = new Set(['GET /dev/controls', 'POST /dev/controls', 'DELETE /dev/controls', 'POST /dev/controls/release'])

/** The REST side: logins and renewals, the API's endpoints (Bearer token), and the development endpoints. */
export async function handleRest(context: RestContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const send: Send = (status, body) => {
    if (!response.headersSent) response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  }
  const path = (request.url ?? '').split('?')[0] ?? ''
  const method = request.method ?? 'GET'
  if (path === `/v1/${ACCESS_TOKEN_PATH}` && method === 'POST') return accessTokenRequest(context, request, send)
  if (path === `/v1/${RENEW_TOKEN_PATH}` && (method === 'POST' || method === 'GET')) return renewAccessToken(context, request, send)
  if (path.startsWith('/v1/') && (method === 'POST' || method === 'GET')) return apiRequest(context, path.slice('/v1/'.length), request, send)
  const dev = context.devEndpoints ? DEV_ENDPOINTS[path] : undefined
  if (dev && (method === 'POST' || (method === 'GET' && path === '/dev/prices'))) return dev(context, request, send)
  if (context.devEndpoints && CONTROL_ROUTES.has(`${method} ${path}`)) return devControls(context, request, send, path)
  send(404, { errorText: 'Not found' })
}
