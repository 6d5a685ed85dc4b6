import { createServer, request as httpRequest, Agent, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RoundRobinProxy {
  url: string
  close(): Promise<void>
}

/**
 * An HTTP proxy on a spare port of 127.0.0.1 that hands each request to the next upstream in turn (several
 * instances behind one address, as a load balancer would). An upstream that cannot be reached answers 502,
 * which a sender retries like any other failure.
 */
export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  const targets = upstreams.map((upstream) => new URL(upstream))
  const agent = new Agent({ keepAlive: true, maxSockets: 64 })
  let next = 0
  const forward = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const target = targets[next++ % targets.length]!
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers, agent },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(outgoing)
      },
    )
    upstream.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' })
      outgoing.end('upstream unreachable')
    })
    incoming.pipe(upstream)
  }
  const server = createServer(forward)
  server.keepAliveTimeout = 30_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
