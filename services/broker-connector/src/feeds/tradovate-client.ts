import WebSocket from 'ws'

/** The secret fields sealed in broker_credentials (settings service), opened with the user's id as context. */
export interface BrokerLogin {
  username: string
  password: string
  appId: string | null
  appVersion: string | null
  cid: string | number | null
  sec: string | null
  deviceId: string | null
}

export interface BrokerEndpoints {
  /** REST base, e.g. `https://demo.tradovateapi.com/v1`. */
  restUrl: string
  /** Real-time WebSocket, e.g. `wss://demo.tradovateapi.com/v1/websocket`. */
  wsUrl: string
}

/** A failure whose message is safe to show and store (never contains a secret). */
export class FeedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FeedError'
  }
}

export interface FeedConnection {
  /** The broker's account this session synchronised. */
  readonly accountName: string | null
  /** Closes the session; `onLost` is not called for a close we asked for. */
  close(): void
}

export interface ConnectOptions {
  /** Called once if the session ends without `close()`: broker restart, network loss, silence. */
  onLost(reason: string): void
  timeoutMs?: number
  /** Client heartbeat interval (Tradovate expects one every 2.5 s). */
  heartbeatMs?: number
  /** The session is considered lost after this long without any frame from the server. */
  silenceMs?: number
}

const withTimeout = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new FeedError(`${what} timed out after ${ms} ms`)), ms)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error instanceof Error ? error : new Error(String(error)))
      },
    )
  })

/** `POST /auth/accesstokenrequest` (Tradovate answers a wrong login with 200 and `errorText`). */
export async function requestAccessToken(restUrl: string, login: BrokerLogin, timeoutMs: number): Promise<string> {
  const body = {
    name: login.username,
    password: login.password,
    appId: login.appId,
    appVersion: login.appVersion,
    cid: login.cid,
    sec: login.sec,
    deviceId: login.deviceId,
  }
  let response: Response
  try {
    response = await fetch(`${restUrl}/auth/accesstokenrequest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    })
  } catch (error) {
    throw new FeedError(`broker unreachable: ${(error as Error).name === 'TimeoutError' ? 'timed out' : 'connection failed'}`)
  }
  const answer = (await response.json().catch(() => ({}))) as Partial<AccessTokenAnswer>
  if (typeof answer.errorText === 'string' && answer.errorText) throw new FeedError(`broker refused the login: ${answer.errorText.slice(0, 200)}`)
  if (!response.ok || typeof answer.accessToken !== 'string') throw new FeedError(`broker refused the login (HTTP ${response.status})`)
  return answer.accessToken
}

interface AccessTokenAnswer {
  accessToken: string
  errorText: string
}

/**
 * Opens a user's real-time session the way Tradovate's API wants it: access token over REST, then the
 * WebSocket (`o` frame), `authorize` with the token, `user/syncrequest`, and a heartbeat (`[]`) every
 * 2.5 s. Resolves once the sync is acknowledged.
 */
export async function connectFeed(endpoints: BrokerEndpoints, login: BrokerLogin, options: ConnectOptions): Promise<FeedConnection> {
  const timeoutMs = options.timeoutMs ?? 10_000
  const heartbeatMs = options.heartbeatMs ?? 2_500
  const silenceMs = options.silenceMs ?? 10_000
  const token = await requestAccessToken(endpoints.restUrl, login, timeoutMs)

  const socket = new WebSocket(endpoints.wsUrl, { handshakeTimeout: timeoutMs })
  let nextId = 1
  const pending = new Map<number, { resolve: (value: { s: number; d?: unknown }) => void }>()
  let opened: () => void = () => undefined
  const openFrame = new Promise<void>((resolve) => (opened = resolve))
  let closedByUs = false
  let lost = false
  let established = false
  let lastFrameAt = Date.now()
  let heartbeat: NodeJS.Timeout | undefined
  let failEarly: (error: Error) => void = () => undefined
  const early = new Promise<never>((_resolve, reject) => (failEarly = reject))
  early.catch(() => undefined)

  const loseSession = (reason: string) => {
    clearInterval(heartbeat)
    if (closedByUs || lost) return
    lost = true
    failEarly(new FeedError(reason))
    socket.terminate()
    if (established) options.onLost(reason)
  }

  socket.on('message', (data) => {
    lastFrameAt = Date.now()
    const frame = String(data)
    const kind = frame[0]
    if (kind === 'o') return opened()
    if (kind === 'h') return
    if (kind === 'a' || kind === 'c') {
      let messages: unknown
      try {
        messages = JSON.parse(frame.slice(1))
      } catch {
        return
      }
      if (kind === 'c') return loseSession(`broker closed the session: ${String((messages as unknown[])[1] ?? '')}`.slice(0, 200))
      for (const message of Array.isArray(messages) ? messages : []) {
        const { i, s, d } = message as { i?: unknown; s?: unknown; d?: unknown }
        if (typeof i === 'number' && typeof s === 'number') pending.get(i)?.resolve({ s, d })
      }
    }
  })
  socket.on('error', () => loseSession('connection error'))
  socket.on('close', () => loseSession('connection closed'))

  const call = (endpoint: string, body: string) => {
    const id = nextId++
    const answer = new Promise<{ s: number; d?: unknown }>((resolve) => pending.set(id, { resolve }))
    socket.send(`${endpoint}\n${id}\n\n${body}`)
    return Promise.race([withTimeout(answer, timeoutMs, endpoint), early]).finally(() => pending.delete(id))
  }

  try {
    await Promise.race([withTimeout(openFrame, timeoutMs, 'websocket open'), early])
    const authorized = await call('authorize', token)
    if (authorized.s !== 200) throw new FeedError(`broker refused the session (status ${authorized.s})`)
    const sync = await call('user/syncrequest', JSON.stringify({ users: [] }))
    if (sync.s !== 200) throw new FeedError(`broker refused the sync request (status ${sync.s})`)
    const accounts = (sync.d as { accounts?: { name?: unknown }[] } | undefined)?.accounts
    const accountName = typeof accounts?.[0]?.name === 'string' ? accounts[0].name : null
    heartbeat = setInterval(() => {
      if (Date.now() - lastFrameAt > silenceMs) return loseSession(`no frame from the broker for ${silenceMs} ms`)
      if (socket.readyState === WebSocket.OPEN) socket.send('[]')
    }, heartbeatMs)
    established = true
    return {
      accountName,
      close() {
        closedByUs = true
        clearInterval(heartbeat)
        socket.close(1000, 'feed stopped')
      },
    }
  } catch (error) {
    closedByUs = true
    clearInterval(heartbeat)
    socket.terminate()
    throw error instanceof FeedError ? error : new FeedError('broker session could not be opened')
  }
}
