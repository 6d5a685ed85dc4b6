import type { WebSocket, WebSocketServer } from 'ws'
import { CLIENT_HEARTBEAT, ENDPOINTS, OPEN_FRAME, arrayFrame, closeFrame, parseRequest, type SyncResponse, type WireRequest, type WireResponse } from '@signals/tradovate-wire'
import { findContract } from './contracts.ts'
import type { RequestControls } from './controls.ts'
import type { PaperMarket } from './market.ts'
import type { PaperAccount, SeenRequest } from './paper-account.ts'
import type { TokenStore } from './tokens.ts'

export interface SocketContext {
  tokens: TokenStore
  controls: RequestControls
  market: PaperMarket
  heartbeatMs: number
  seen(request: SeenRequest): void
}

interface Connection {
  socket: WebSocket
  account: PaperAccount | null
  synced: boolean
  expiryTimer: NodeJS.Timeout | undefined
}

type Handler = (account: PaperAccount, body: Record<string, unknown>, request: WireRequest) => Omit<WireResponse, 'i'>

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const ok = (d: unknown): Omit<WireResponse, 'i'> => ({ s: 200, d })

/** The account a request names must be the session's own. */
const ownAccount = (account: PaperAccount, body: Record<string, unknown>) => body.accountId === account.accountId

function handlers(market: PaperMarket): Record<string, Handler> {
  return {
    [ENDPOINTS.syncRequest]: (account) => ok(syncSnapshot(market, account)),
    [ENDPOINTS.accountList]: (account) => ok([market.accountEntity(account.accountId)]),
    [ENDPOINTS.contractFind]: (_account, _body, request) => {
      const name = new URLSearchParams(request.query).get('name') ?? ''
      const contract = findContract(name)
      return contract ? ok({ id: contract.id, name: contract.name, contractMaturityId: contract.contractMaturityId }) : { s: 404, d: `Contract ${name} not found` }
    },
    [ENDPOINTS.cashBalanceSnapshot]: (account, body) => (ownAccount(account, body) ? ok(market.cashSnapshot(account.accountId)) : ok({ errorText: 'Access is denied' })),
    [ENDPOINTS.orderList]: (account) => ok(market.orders(account.accountId)),
    [ENDPOINTS.placeOSO]: (account, body) =>
      ownAccount(account, body) && body.accountSpec === account.accountName
        ? ok(market.placeOso(account.accountId, body))
        : ok({ failureReason: 'Unauthorized', failureText: 'accountId and accountSpec must name your account' }),
    [ENDPOINTS.liquidatePosition]: (account, body) =>
      ownAccount(account, body) ? ok(market.liquidate(account.accountId, body.contractId)) : ok({ failureReason: 'Unauthorized', failureText: 'accountId must name your account' }),
    [ENDPOINTS.cancelOrder]: (account, body) => ok(market.cancelOrder(account.accountId, body.orderId)),
  }
}

export function syncSnapshot(market: PaperMarket, account: PaperAccount): SyncResponse {
  const id = account.accountId
  const cash = market.cashBalance(id)
  return {
    users: [{ id: account.userId, name: account.name, status: 'Active' }],
    accounts: [market.accountEntity(id)].filter((entity) => entity !== null),
    cashBalances: cash ? [cash] : [],
    orders: market.orders(id),
    orderVersions: market.orderVersions(id),
    fills: market.fills(id),
    positions: market.positions(id),
  }
}

/**
 * The real-time socket: `o` on open, `h` heartbeats, `authorize` with an access token, `user/syncrequest`,
 * then requests answered `{i, s, d}` and `props` events pushed to every synchronised socket of the account.
 * A socket is closed (`c[...]` frame) when its login session expires without renewal.
 */
export function serveSockets(wss: WebSocketServer, context: SocketContext) {
  const connections = new Set<Connection>()
  const table = handlers(context.market)

  const broadcast = () => {
    const byAccount = new Map<number, unknown[]>()
    for (const { accountId, event } of context.market.drainEvents()) {
      const list = byAccount.get(accountId) ?? []
      list.push({ e: 'props', d: event })
      byAccount.set(accountId, list)
    }
    for (const connection of connections) {
      const events = connection.synced && connection.account ? byAccount.get(connection.account.accountId) : undefined
      if (events?.length && connection.socket.readyState === connection.socket.OPEN) connection.socket.send(`a${JSON.stringify(events)}`)
    }
  }

  const watchExpiry = (connection: Connection, token: string) => {
    clearTimeout(connection.expiryTimer)
    const session = context.tokens.session(token)
    if (!session) return
    const check = () => {
      if (session.expiresAt > Date.now()) {
        connection.expiryTimer = setTimeout(check, session.expiresAt - Date.now() + 5)
        return
      }
      connection.socket.send(closeFrame(1000, 'Access token expired'))
      connection.socket.close()
    }
    connection.expiryTimer = setTimeout(check, session.expiresAt - Date.now() + 5)
  }

  async function handle(connection: Connection, request: WireRequest): Promise<void> {
    let body: Record<string, unknown> = {}
    if (request.endpoint !== ENDPOINTS.authorize && request.body.trim() !== '') {
      try {
        body = JSON.parse(request.body) as Record<string, unknown>
      } catch {
        return send(connection, { i: request.id, s: 400, d: 'Malformed JSON body' })
      }
    }
    context.seen({ transport: 'ws', endpoint: request.endpoint, body, name: connection.account?.name ?? null, ticket: typeof body['p-ticket'] === 'string' })
    const answer = context.controls.answerFor(request.endpoint, body['p-ticket'])
    const result = answer ? null : respond(connection, request, body)
    await sleep(context.controls.delayOf(request.endpoint))
    if (answer?.kind === 'penalty') send(connection, { i: request.id, s: 200, d: answer.body })
    else if (answer) send(connection, { i: request.id, s: answer.status, d: answer.text })
    else if (result) send(connection, { i: request.id, ...result })
    broadcast()
  }

  function respond(connection: Connection, request: WireRequest, body: Record<string, unknown>): Omit<WireResponse, 'i'> {
    if (request.endpoint === ENDPOINTS.authorize) {
      const session = context.tokens.session(request.body.trim())
      if (!session) return { s: 401, d: 'Access is denied' }
      connection.account = session.account
      watchExpiry(connection, request.body.trim())
      return { s: 200 }
    }
    if (!connection.account) return { s: 401, d: 'Not authorized' }
    const handler = table[request.endpoint]
    if (!handler) return { s: 404, d: `Unknown endpoint ${request.endpoint}` }
    if (request.endpoint === ENDPOINTS.syncRequest) connection.synced = true
    return handler(connection.account, body, request)
  }

  const send = (connection: Connection, response: WireResponse) => {
    if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(arrayFrame([response]))
  }

  wss.on('connection', (socket) => {
    const connection: Connection = { socket, account: null, synced: false, expiryTimer: undefined }
    connections.add(connection)
    socket.send(OPEN_FRAME)
    const heartbeat = setInterval(() => socket.send('h'), context.heartbeatMs)
    socket.on('close', () => {
      clearInterval(heartbeat)
      clearTimeout(connection.expiryTimer)
      connections.delete(connection)
    })
    socket.on('message', (data) => {
      const frame = String(data)
      if (frame === CLIENT_HEARTBEAT) return
      const request = parseRequest(frame)
      if (!request) return socket.send(closeFrame(1002, 'Malformed frame'))
      void handle(connection, request)
    })
  })

  return {
    broadcast,
    /** Login names of authorized, synchronised sockets. */
    sessions: () => [...connections].filter((c) => c.synced && c.account).map((c) => (c.account as PaperAccount).name),
  }
}
