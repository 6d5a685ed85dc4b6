import type { FastifyRequest } from 'fastify'

/**
 * Whether the route the router matched lies under `prefix` (`'/api/'` matches `/api` and `/api/...`).
 * Checks key on the matched route, never on `request.url`: the router matches the decoded path, so
 * `/%61pi/x` reaches the `/api/x` handler while its raw URL does not start with `/api/`.
 * A request that matched no route (404) is under no prefix.
 */
export function routeUnder(request: FastifyRequest, prefix: string): boolean {
  const route = request.routeOptions.url
  if (route === undefined) return false
  const bare = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix
  return route === bare || route.startsWith(bare + '/')
}
