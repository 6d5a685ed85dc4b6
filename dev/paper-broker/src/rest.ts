import type { IncomingMessage, ServerResponse } from 'node:http'
import { ACCESS_TOKEN_PATH, RENEW_TOKEN_PATH, type AccessTokenRequest, type AccessTokenResponse } from '@signals/tradovate-wire'
import type { RequestControls } from './controls.ts'
import type { PaperMarket } from './market.ts'
import type { PaperAccount, SeenRequest } from './paper-account.ts'
import type { IssuedTokens, TokenStore } from './tokens.ts'
import { setTimeout as sleep } from 'node:timers/promises'

export interface RestContext {
  accounts: Map<string, PaperAccount>
  tokens: TokenStore
  controls: RequestControls
  market: PaperMarket
  /** Development price endpoint (`/dev/prices`); off when false. */
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

/** Answers an interference (penalty, 429, 5xx) when one is queued; true when it did. */
async function interfered(context: RestContext, endpoint: string, ticket: unknown, send: Send): Promise<boolean> {
  const answer = context.controls.answerFor(endpoint, ticket)
  await sleep(context.controls.delayOf(endpoint))
  if (!answer) return false
  // Tradovate issues penalty tickets and command refusals as HTTP 200.
  if (answer.kind !== 'status') send(200, answer.body)
  else send(answer.status, { errorText: answer.text })
  return true
}

const tokenAnswer = ({ token, mdToken, session }: IssuedTokens, account: PaperAccount): AccessTokenResponse => ({
  accessToken: token,
  mdAccessToken: mdToken,
  expirationTime: new Date(session.expiresAt).toISOString(),
  userStatus: 'Active',
  userId: account.userId,
  name: account.name,
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
  if (await interfered(context, ACCESS_TOKEN_PATH, ticket, send)) return
  const account = context.accounts.get(body.name as string)
  // Tradovate answers a wrong login with 200 and an errorText.
  if (!account || account.password !== body.password) {
    context.tokenRequests.push({ name: String(body.name), ok: false })
    return send(200, { errorText: 'Incorrect username or password. Please try again.' })
  }
  context.tokenRequests.push({ name: account.name, ok: true })
  send(200, tokenAnswer(context.tokens.issue(account), account))
}

async function renewAccessToken(context: RestContext, request: IncomingMessage, send: Send): Promise<void> {
  const token = request.headers.authorization?.replace(/^Bearer /, '') ?? ''
  const parsed = request.method === 'POST' ? await readJson(request, send) : { value: {} }
  if (!parsed) return
  const ticket = (parsed.value as Record<string, unknown> | null)?.['p-ticket']
  const known = context.tokens.session(token)
  context.seen({ transport: 'rest', endpoint: RENEW_TOKEN_PATH, body: parsed.value, name: known?.account.name ?? null, ticket: typeof ticket === 'string' })
  if (await interfered(context, RENEW_TOKEN_PATH, ticket, send)) return
  const renewed = context.tokens.renew(token)
  if (!renewed) return send(401, { errorText: 'Access is denied' })
  send(200, tokenAnswer(renewed, renewed.session.account))
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

/** The REST side: `/v1/auth/accesstokenrequest`, `/v1/auth/renewaccesstoken` (GET or POST), `/dev/prices`. */
export async function handleRest(context: RestContext, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const send: Send = (status, body) => {
    if (!response.headersSent) response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
  }
  const path = (request.url ?? '').split('?')[0]
  if (path === `/v1/${ACCESS_TOKEN_PATH}` && request.method === 'POST') return accessTokenRequest(context, request, send)
  if (path === `/v1/${RENEW_TOKEN_PATH}` && (request.method === 'POST' || request.method === 'GET')) return renewAccessToken(context, request, send)
  if (path === '/dev/prices' && context.devEndpoints && (request.method === 'POST' || request.method === 'GET')) return devPrices(context, request, send)
  send(404, { errorText: 'Not found' })
}
