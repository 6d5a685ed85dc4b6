import WebSocket from 'ws'
import { CLIENT_HEARTBEAT, formatRequest, parseServerFrame, type WireEvent } from '@signals/tradovate-wire'
import { BrokerError } from '../broker-adapter.ts'

export interface SocketOptions {
  timeoutMs: number
  /** Client heartbeat interval (Tradovate expects one every 2.5 s). */
  heartbeatMs: number
  /** The socket counts as lost after this long without any frame from the server (`h` included). */
  silenceMs: number
  onEvent(event: WireEvent): void
  /** Called once when the socket ends without `close()`. */
  onLost(reason: string): void
}

interface Pending {
  endpoint: string
  resolve(answer: { s: number; d: unknown }): void
  reject(error: BrokerError): void
  timer: NodeJS.Timeout
}

/**
 * One Tradovate real-time socket: waits for `o`, numbers requests, matches `{i,s,d}` answers, passes events
 * on, sends `[]` heartbeats and notices silence. A request still waiting when the socket ends is rejected
 * `unavailable`: it may or may not have been carried out (the caller reconciles by tag).
 */
export class TradovateSocket {
  readonly #socket: WebSocket
  readonly #pending = new Map<number, Pending>()
  #nextId = 1
  #ended: string | null = null
  #closedByUs = false
  #lastFrameAt = Date.now()
  #heartbeat: NodeJS.Timeout | undefined

  private constructor(url: string, private readonly options: SocketOptions) {
    this.#socket = new WebSocket(url, { handshakeTimeout: options.timeoutMs })
  }

  /** When the last frame (heartbeats included) arrived. */
  get lastFrameAt(): number {
    return this.#lastFrameAt
  }

  static async open(url: string, options: SocketOptions): Promise<TradovateSocket> {
    const socket = new TradovateSocket(url, options)
    await socket.#waitForOpen()
    return socket
  }

  #waitForOpen(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail('the broker socket did not open in time'), this.options.timeoutMs)
      const fail = (reason: string) => {
        clearTimeout(timer)
        this.#end(reason)
        reject(new BrokerError('unavailable', `broker unreachable: ${reason}`))
      }
      this.#socket.on('error', () => fail('connection error'))
      this.#socket.on('close', () => fail('connection closed'))
      this.#socket.on('message', (data) => {
        this.#lastFrameAt = Date.now()
        const frame = parseServerFrame(String(data))
        if (frame.kind === 'open') {
          clearTimeout(timer)
          this.#startHeartbeat()
          resolve()
        } else if (frame.kind === 'close') {
          this.#end(`broker closed the session: ${frame.reason}`.slice(0, 200))
        } else if (frame.kind === 'array') {
          for (const response of frame.responses) this.#pending.get(response.i)?.resolve({ s: response.s, d: response.d })
          for (const event of frame.events) this.options.onEvent(event)
        }
      })
    })
  }

  #startHeartbeat(): void {
    this.#heartbeat = setInterval(() => {
      if (Date.now() - this.#lastFrameAt > this.options.silenceMs) return this.#end(`no frame from the broker for ${this.options.silenceMs} ms`)
      if (this.#socket.readyState === WebSocket.OPEN) this.#socket.send(CLIENT_HEARTBEAT)
    }, this.options.heartbeatMs)
  }

  /** Ends the socket once: pending requests fail `unavailable`, and `onLost` hears it unless we closed it. */
  #end(reason: string): void {
    if (this.#ended !== null) return
    this.#ended = reason
    clearInterval(this.#heartbeat)
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer)
      this.#pending.delete(id)
      pending.reject(new BrokerError('unavailable', `${pending.endpoint}: the connection to the broker ended before it answered (${reason}); the outcome is unknown`))
    }
    this.#socket.terminate()
    if (!this.#closedByUs) this.options.onLost(reason)
  }

  /** Sends `endpoint\nid\nquery\nbody` and resolves with the answer's status and data. */
  request(endpoint: string, body: string, query = ''): Promise<{ s: number; d: unknown }> {
    if (this.#ended !== null || this.#socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(new BrokerError('unavailable', `${endpoint}: not connected to the broker (${this.#ended ?? 'socket not open'})`, null, true))
    }
    const id = this.#nextId++
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id)
        reject(new BrokerError('unavailable', `${endpoint}: the broker did not answer within ${this.options.timeoutMs} ms; the outcome is unknown`))
      }, this.options.timeoutMs)
      const settle = () => {
        clearTimeout(timer)
        this.#pending.delete(id)
      }
      this.#pending.set(id, {
        endpoint,
        timer,
        resolve: (answer) => {
          settle()
          resolve(answer)
        },
        reject: (error) => {
          settle()
          reject(error)
        },
      })
      this.#socket.send(formatRequest(endpoint, id, body, query))
    })
  }

  get ended(): boolean {
    return this.#ended !== null
  }

  close(): void {
    this.#closedByUs = true
    this.#end('closed')
  }
}
