// The page's live socket (GET /api/live): each message is a change notice {kind: alert|trade|status}; the
// page refetches through /api on a notice and after every reconnect, so a notice lost while away costs
// nothing. Close codes 4401/4403/4409 mean signed out, banned, approval withdrawn: the page leaves.

/** A change notice: refetch that kind of thing. */
export interface Notice {
  kind: 'alert' | 'trade' | 'status'
}

export type LiveState = 'connected' | 'reconnecting' | 'closed'

declare global {
  interface Window {
    /** The open socket, for the browser tests (they close it to see the page reconnect). */
    __liveSocket?: WebSocket
  }
}

const LEAVE: Record<number, string> = {
  4401: '/login.html?error=session',
  // Through the home page: the gateway answers a banned user's page with the sign-in page and the ban's reason.
  4403: '/',
  4409: '/pending-approval.html',
}

/**
 * Opens the socket and keeps it open (backing off 1 s to 30 s between tries). `onNotice(notice)` on each
 * message; `onState('connected' | 'reconnecting' | 'closed')` as the socket comes and goes.
 */
export function openLive({ onNotice, onState }: { onNotice: (notice: Notice) => void; onState: (state: LiveState) => void }): { stop: () => boolean } {
  let delay = 1000
  let stopped = false
  const connect = () => {
    const url = new URL('/api/live', window.location.href)
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
    const socket = new WebSocket(url)
    socket.addEventListener('open', () => {
      delay = 1000
      onState('connected')
    })
    socket.addEventListener('message', (event) => {
      try {
        onNotice(JSON.parse(String(event.data)) as Notice)
      } catch {
        // Not a notice: nothing to refetch.
      }
    })
    socket.addEventListener('close', (event) => {
      const leave = LEAVE[event.code]
      if (leave) {
        stopped = true
        onState('closed')
        window.location.assign(leave)
        return
      }
      if (stopped) return
      onState('reconnecting')
      setTimeout(connect, delay)
      delay = Math.min(delay * 2, 30_000)
    })
    window.__liveSocket = socket
  }
  connect()
  return { stop: () => (stopped = true) }
}
