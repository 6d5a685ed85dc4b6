/**
 * The gateway's own public routes for `/docs` (the services describe theirs): the live socket, which no
 * route schema can describe since a socket that opens has no HTTP answer.
 */
export const GATEWAY_PATHS: Record<string, unknown> = {
  '/api/live': {
    get: {
      operationId: 'openLiveSocket',
      tags: ['live'],
      summary: 'Live change notices (WebSocket)',
      description:
        'A WebSocket (`GET` with `Upgrade: websocket`) for the signed-in, approved user, authenticated by the ' +
        'session cookie, from the site itself (the `Origin` must be ours). The server sends one JSON text ' +
        'message per change, `{"version":1,"userId":…,"kind":…,"id":…|null,"at":"<ISO time>"}`: `kind` is ' +
        '`alert` (an alert record), `trade` or `status` (live trading), so the page reloads that part. Messages from the ' +
        'client are ignored. The socket is closed when the session ends, is banned or loses approval. Refusals are plain HTTP answers before the handshake.',
      parameters: [
        { name: 'Upgrade', in: 'header', required: true, schema: { type: 'string', enum: ['websocket'] } },
        { name: 'Origin', in: 'header', required: true, schema: { type: 'string' }, description: 'The site\'s own origin (PUBLIC_URL)' },
      ],
      responses: {
        '101': { description: 'Switching protocols: the socket is open' },
        '401': { description: 'Authentication required' },
        '403': { description: 'Cross-origin socket refused, account banned or pending approval' },
        '426': { description: 'A plain GET: this route takes a WebSocket upgrade' },
      },
    },
  },
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options'])

/** `GET /api/admin/bans/{email}` → `getApiAdminBansByEmail`: stable, unique per method and path. */
function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => (segment.startsWith('{') ? `by-${segment.slice(1, -1)}` : segment))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter((word) => word !== '')
  return method + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('')
}

/** Gives every operation without an operationId one derived from its method and path. */
export function withOperationIds(paths: Record<string, unknown>): Record<string, unknown> {
  for (const [path, item] of Object.entries(paths)) {
    if (typeof item !== 'object' || item === null) continue
    for (const [method, operation] of Object.entries(item as Record<string, unknown>)) {
      if (!METHODS.has(method) || typeof operation !== 'object' || operation === null) continue
      const op = operation as { operationId?: unknown }
      if (typeof op.operationId !== 'string' || op.operationId === '') op.operationId = operationIdOf(method, path)
    }
  }
  return paths
}
