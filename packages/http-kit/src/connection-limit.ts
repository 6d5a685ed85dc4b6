import type { Server } from 'node:http'

/**
 * At most `max` open connections from one client address (HTTP_MAX_CONNECTIONS_PER_ADDRESS on the public
 * servers): a further connection is closed as it opens, before any byte is read, so one client cannot take
 * every socket with slow or idle connections. The address is the socket's: behind a proxy or load
 * balancer every client shares the proxy's, so there the limit belongs to the proxy (0 turns it off).
 */
export function limitConnectionsPerAddress(server: Server, max: number): void {
  if (max <= 0) return
  const open = new Map<string, number>()
  server.on('connection', (socket) => {
    const address = socket.remoteAddress ?? ''
    const count = open.get(address) ?? 0
    if (count >= max) {
      socket.destroy()
      return
    }
    open.set(address, count + 1)
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1
      if (left > 0) open.set(address, left)
      else open.delete(address)
    })
  })
}
