import { randomBytes } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'

/** SignalR's record separator: every JSON hub message ends with it. */
const RS = '\u001e'
const MessageType = { Invocation: 1, StreamItem: 2, Completion: 3, StreamInvocation: 4, CancelInvocation: 5, Ping: 6, Close: 7 } as const

/** One client's connection to a hub, as a hub's methods see it. */
export interface HubClient<Session> {
  readonly session: Session
  /** Sends `target(...args)` to the client (a server-to-client invocation, no answer expected). */
  send(target: string, ...args: unknown[]): void
  /** Runs `then` right after the completion of the invocation being handled has been sent. */
  afterCompletion(then: () => void): void
}

export interface Hub<Session> {
  /** Methods the client invokes by name; a thrown error is sent back as the completion's error. */
  methods: Readonly<Record<string, (client: HubClient<Session>, args: unknown[]) => unknown>>
  connected?(client: HubClient<Session>): void
  disconnected?(client: HubClient<Session>): void
}

interface Connection<Session> extends HubClient<Session> {
  socket: WebSocket
  handshaken: boolean
  buffer: string
  pending: (() => void)[]
}

/**
 * The server side of ASP.NET Core SignalR's JSON hub protocol over WebSockets, enough for the official
 * `@microsoft/signalr` client: `POST <hub>/negotiate?negotiateVersion=1` (WebSockets only), the handshake
 * (`{"protocol":"json","version":1}` answered `{}`), messages ending in 0x1E, invocations answered with
 * completions, server-to-client invocations, pings both ways (the server's every `keepAliveMs`), and a
 * close message when the server stops. The token comes as `access_token` in the query (browsers) or a
 * Bearer header (Node clients); `authorize` turns it into the hub's session or refuses it (401).
 */
export class SignalRServer<Session> {
  readonly #wss = new WebSocketServer({ noServer: true })
  readonly #connections = new Set<Connection<Session>>()
  /** Connection tokens handed out by negotiate and not yet used. */
  readonly #negotiated = new Set<string>()

  constructor(
    private readonly hubs: Readonly<Record<string, Hub<Session>>>,
    private readonly authorize: (token: string) => Session | null,
    private readonly keepAliveMs: number,
  ) {}

  #token(request: IncomingMessage, url: URL): string {
    return url.searchParams.get('access_token') ?? request.headers.authorization?.replace(/^Bearer /, '') ?? ''
  }

  /** Answers `POST <hub>/negotiate`; false when the request is not one. */
  negotiate(request: IncomingMessage, response: ServerResponse): boolean {
    const url = new URL(request.url ?? '/', 'http://paper')
    const hub = url.pathname.endsWith('/negotiate') ? url.pathname.slice(0, -'/negotiate'.length) : null
    if (request.method !== 'POST' || hub === null || !this.hubs[hub]) return false
    request.resume()
    if (this.authorize(this.#token(request, url)) === null) {
      response.writeHead(401).end()
      return true
    }
    const connectionToken = randomBytes(16).toString('base64url')
    this.#negotiated.add(connectionToken)
    const body = { negotiateVersion: 1, connectionId: randomBytes(16).toString('base64url'), connectionToken, availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text'] }] }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    return true
  }

  /** Takes a WebSocket upgrade for a hub path; false when the path is no hub's. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(request.url ?? '/', 'http://paper')
    const hub = this.hubs[url.pathname]
    if (!hub) return false
    const session = this.authorize(this.#token(request, url))
    const id = url.searchParams.get('id')
    const refusal = session === null ? '401 Unauthorized' : id !== null && !this.#negotiated.delete(id) ? '404 Not Found' : null
    if (refusal) {
      socket.end(`HTTP/1.1 ${refusal}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
      return true
    }
    this.#wss.handleUpgrade(request, socket, head, (ws) => this.#accept(hub, ws, session as Session))
    return true
  }

  #accept(hub: Hub<Session>, socket: WebSocket, session: Session): void {
    const write = (message: object) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message) + RS)
    }
    const connection: Connection<Session> = {
      session,
      socket,
      handshaken: false,
      buffer: '',
      pending: [],
      send: (target, ...args) => {
        if (connection.handshaken) write({ type: MessageType.Invocation, target, arguments: args })
      },
      afterCompletion: (then) => connection.pending.push(then),
    }
    this.#connections.add(connection)
    const ping = setInterval(() => write({ type: MessageType.Ping }), this.keepAliveMs)
    socket.on('message', (data: RawData) => this.#receive(hub, connection, String(data), write))
    socket.on('close', () => {
      clearInterval(ping)
      this.#connections.delete(connection)
      hub.disconnected?.(connection)
    })
  }

  #receive(hub: Hub<Session>, connection: Connection<Session>, text: string, write: (message: object) => void): void {
    connection.buffer += text
    let end: number
    while ((end = connection.buffer.indexOf(RS)) >= 0) {
      const frame = connection.buffer.slice(0, end)
      connection.buffer = connection.buffer.slice(end + 1)
      let message: Record<string, unknown>
      try {
        message = JSON.parse(frame) as Record<string, unknown>
      } catch {
        connection.socket.close(1003, 'malformed message')
        return
      }
      if (!connection.handshaken) {
        if (message.protocol !== 'json' || message.version !== 1) {
          write({ error: `Requested protocol '${String(message.protocol)}' version ${String(message.version)} is not available; this server speaks json version 1.` })
          connection.socket.close()
          return
        }
        connection.handshaken = true
        write({})
        hub.connected?.(connection)
        continue
      }
      this.#dispatch(hub, connection, message, write)
    }
  }

  #dispatch(hub: Hub<Session>, connection: Connection<Session>, message: Record<string, unknown>, write: (message: object) => void): void {
    if (message.type === MessageType.Close) return void connection.socket.close()
    if (message.type === MessageType.StreamInvocation) return write({ type: MessageType.Completion, invocationId: message.invocationId, error: 'Streaming is not supported by this server.' })
    if (message.type !== MessageType.Invocation || typeof message.target !== 'string') return
    const invocationId = typeof message.invocationId === 'string' ? message.invocationId : null
    const method = hub.methods[message.target]
    let outcome: { result?: unknown } | { error: string }
    try {
      if (!method) throw new Error(`Failed to invoke '${message.target}' because it does not exist.`)
      const result = method(connection, Array.isArray(message.arguments) ? message.arguments : [])
      outcome = result === undefined ? {} : { result }
    } catch (error) {
      outcome = { error: `An unexpected error occurred invoking '${message.target}' on the server. ${error instanceof Error ? error.message : String(error)}` }
    }
    if (invocationId !== null) write({ type: MessageType.Completion, invocationId, ...outcome })
    for (const then of connection.pending.splice(0)) then()
  }

  /** Drops every connection without a close message (as a lost network does); clients reconnect. */
  drop(): void {
    for (const connection of this.#connections) connection.socket.terminate()
  }

  /** Sends each client a close message and closes its socket. */
  async close(): Promise<void> {
    for (const connection of this.#connections) {
      if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(JSON.stringify({ type: MessageType.Close }) + RS)
      connection.socket.close()
    }
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()))
  }
}
