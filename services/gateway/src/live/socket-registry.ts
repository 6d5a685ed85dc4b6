import type { WebSocket } from 'ws'

export interface LiveSocket {
  socket: WebSocket
  userId: string
  sessionId: string
}

/** The open browser sockets, by user: what a notice for a user is sent to, and what a ban closes. */
export class SocketRegistry {
  readonly #byUser = new Map<string, Set<LiveSocket>>()

  add(entry: LiveSocket): void {
    let sockets = this.#byUser.get(entry.userId)
    if (sockets === undefined) this.#byUser.set(entry.userId, (sockets = new Set()))
    sockets.add(entry)
    entry.socket.once('close', () => this.#remove(entry))
  }

  /** Sends `text` to every open socket of the user; how many it went to. */
  send(userId: string, text: string): number {
    const sockets = this.#byUser.get(userId)
    if (sockets === undefined) return 0
    for (const { socket } of sockets) socket.send(text)
    return sockets.size
  }

  has(userId: string): boolean {
    return this.#byUser.has(userId)
  }

  users(): string[] {
    return [...this.#byUser.keys()]
  }

  socketsOf(userId: string): LiveSocket[] {
    return [...(this.#byUser.get(userId) ?? [])]
  }

  get size(): number {
    let count = 0
    for (const sockets of this.#byUser.values()) count += sockets.size
    return count
  }

  /** Closes sockets with a WebSocket close code the page understands (see live-codes.ts). */
  close(entries: Iterable<LiveSocket>, code: number, reason: string): void {
    for (const entry of entries) entry.socket.close(code, reason)
  }

  #remove(entry: LiveSocket): void {
    const sockets = this.#byUser.get(entry.userId)
    sockets?.delete(entry)
    if (sockets?.size === 0) this.#byUser.delete(entry.userId)
  }
}
