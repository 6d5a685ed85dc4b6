import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { randomBytes } from 'node:crypto'
import { WebSocketServer, type WebSocket } from 'ws'
import { arrayFrame, closeFrame, parseRequest, type AccessTokenRequest, type AccessTokenResponse } from './protocol.ts'

export interface PaperAccount {
  /** Login name (`name` in the access-token request). */
  name: string
  password: string
  /** Tradovate's numeric user id and the trading account. */
  userId: number
  accountId: number
  accountName: string
}

export interface PaperBrokerOptions {
  host?: string
  /** 0 (default) picks a free port. */
  port?: number
  accounts: readonly PaperAccount[]
  /** Server heartbeat interval (Tradovate: 2.5 s). */
  heartbeatMs?: number
  /** Access-token lifetime. */
  tokenTtlMs?: number
}

export interface PaperBroker {
  port: number
  /** REST base URL, as Tradovate's `https://demo.tradovateapi.com/v1`. */
  restUrl: string
  /** WebSocket URL, as Tradovate's `wss://demo.tradovateapi.com/v1/websocket`. */
  wsUrl: string
  /** Authorized, synchronised real-time sessions, by login name. */
  sessions(): string[]
  /** Access-token requests seen (name and outcome only; never a password). */
  readonly tokenRequests: { name: string; ok: boolean }[]
  /** Drops every WebSocket (as a broker restart does); clients are expected to reconnect. */
  dropConnections(): void
  close(): Promise<void>
}

const REQUIRED_FIELDS = ['name', 'password'] as const
const MAX_BODY = 16 * 1024

/**
 * A development and test simulator of Tradovate's API subset the connector uses: `POST
 * /v1/auth/accesstokenrequest` and the real-time WebSocket (`o`/`h`/`a[...]`/`c[...]` frames,
 * `authorize` with the access token, `user/syncrequest`, heartbeats both ways). It places no orders and
 * holds no market data: it is a protocol peer, not a market. Never started in production.
 */
export async function startPaperBroker(options: PaperBrokerOptions): Promise<PaperBroker> {
  const heartbeatMs = options.heartbeatMs ?? 2_500
  const tokenTtlMs = options.tokenTtlMs ?? 80 * 60_000
  const accounts = new Map(options.accounts.map((account) => [account.name, account]))
  const tokens = new Map<string, { account: PaperAccount; expiresAt: number }>()
  const sessions = new Map<WebSocket, string>()
  const tokenRequests: { name: string; ok: boolean }[] = []

  const server: Server = createServer((request, response) => {
    void handleHttp(request, response)
  })

  async function handleHttp(request: IncomingMessage, response: ServerResponse) {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    }
    if (request.method !== 'POST' || request.url !== '/v1/auth/accesstokenrequest') return send(404, { errorText: 'Not found' })
    let text = ''
    for await (const chunk of request) {
      text += String(chunk)
      if (text.length > MAX_BODY) return send(413, { errorText: 'Request too large' })
    }
    let body: Partial<AccessTokenRequest>
    try {
      body = JSON.parse(text) as Partial<AccessTokenRequest>
    } catch {
      return send(400, { errorText: 'Malformed JSON' })
    }
    const missing = REQUIRED_FIELDS.find((field) => typeof body[field] !== 'string' || body[field] === '')
    if (missing) return send(400, { errorText: `${missing} is required` })
    const account = accounts.get(body.name as string)
    // Tradovate answers a wrong login with 200 and an errorText.
    if (!account || account.password !== body.password) {
      tokenRequests.push({ name: String(body.name), ok: false })
      return send(200, { errorText: 'Incorrect username or password. Please try again.' })
    }
    tokenRequests.push({ name: account.name, ok: true })
    const accessToken = randomBytes(24).toString('base64url')
    const expiresAt = Date.now() + tokenTtlMs
    tokens.set(accessToken, { account, expiresAt })
    const answer: AccessTokenResponse = {
      accessToken,
      mdAccessToken: randomBytes(24).toString('base64url'),
      expirationTime: new Date(expiresAt).toISOString(),
      userStatus: 'Active',
      userId: account.userId,
      name: account.name,
      hasLive: false,
    }
    send(200, answer)
  }

  const wss = new WebSocketServer({ server, path: '/v1/websocket' })
  wss.on('connection', (socket) => {
    let account: PaperAccount | undefined
    socket.send('o')
    const heartbeat = setInterval(() => socket.send('h'), heartbeatMs)
    socket.on('close', () => {
      clearInterval(heartbeat)
      sessions.delete(socket)
    })
    socket.on('message', (data) => {
      const frame = String(data)
      if (frame === '[]') return // the client's heartbeat
      const request = parseRequest(frame)
      if (!request) return socket.send(closeFrame(1002, 'Malformed frame'))
      if (request.endpoint === 'authorize') {
        const token = tokens.get(request.body.trim())
        if (!token || token.expiresAt < Date.now()) {
          return socket.send(arrayFrame([{ i: request.id, s: 401, d: 'Access is denied' }]))
        }
        account = token.account
        return socket.send(arrayFrame([{ i: request.id, s: 200 }]))
      }
      if (!account) return socket.send(arrayFrame([{ i: request.id, s: 401, d: 'Not authorized' }]))
      if (request.endpoint === 'user/syncrequest') {
        sessions.set(socket, account.name)
        return socket.send(
          arrayFrame([
            {
              i: request.id,
              s: 200,
              d: {
                users: [{ id: account.userId, name: account.name, status: 'Active' }],
                accounts: [{ id: account.accountId, name: account.accountName, userId: account.userId, active: true }],
                positions: [],
                orders: [],
                fills: [],
                cashBalances: [],
              },
            },
          ]),
        )
      }
      return socket.send(arrayFrame([{ i: request.id, s: 404, d: `Unknown endpoint ${request.endpoint}` }]))
    })
  })

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const host = options.host ?? '127.0.0.1'
  return {
    port,
    restUrl: `http://${host}:${port}/v1`,
    wsUrl: `ws://${host}:${port}/v1/websocket`,
    sessions: () => [...sessions.values()],
    tokenRequests,
    dropConnections() {
      for (const socket of wss.clients) socket.terminate()
    },
    async close() {
      for (const socket of wss.clients) socket.terminate()
      await new Promise<void>((resolve) => wss.close(() => resolve()))
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
