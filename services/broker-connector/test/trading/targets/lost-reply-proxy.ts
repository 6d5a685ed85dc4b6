import type { Test } from 'tap'
import { createServer, connect, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { createTestDatabase } from '@signals/test-support'

/**
 * A TCP proxy in front of a test database that can lose one statement's reply: once armed with a pattern,
 * the first statement whose text matches it goes on to Postgres (which runs and commits it), and the
 * connection is cut as soon as Postgres answers, the answer never reaching the client; as a network
 * failure or a dead load balancer leaves a statement whose commit nobody saw.
 */
export interface LostReplyProxy {
  /** A DATABASE_URL reaching the test database through the proxy. */
  url: string
  /** Loses the reply of the next statement matching `pattern`; resolves once it was lost. */
  loseReplyOf(pattern: RegExp): Promise<void>
}

export async function databaseBehindProxy(t: Test): Promise<LostReplyProxy> {
  const database = await createTestDatabase()
  t.teardown(() => database.drop())
  const upstream = new URL(database.url)
  let armed: { pattern: RegExp; lost: () => void } | null = null
  const sockets = new Set<Socket>()
  const server = createServer((client) => {
    const server = connect(Number(upstream.port || 5432), upstream.hostname)
    sockets.add(client).add(server)
    let doomed: (() => void) | null = null
    client.on('data', (chunk) => {
      if (armed !== null && armed.pattern.test(chunk.toString('latin1'))) {
        doomed = armed.lost
        armed = null
      }
      server.write(chunk)
    })
    server.on('data', (chunk) => {
      if (doomed === null) return void client.write(chunk)
      // Postgres answered (after its commit, which an autocommit statement's answer follows): cut, unseen.
      client.destroy()
      server.destroy()
      doomed()
    })
    const close = () => { client.destroy(); server.destroy(); sockets.delete(client); sockets.delete(server) }
    client.on('close', close).on('error', close)
    server.on('close', close).on('error', close)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => {
    for (const socket of sockets) socket.destroy()
    server.close(() => resolve())
  }))
  const proxied = new URL(database.url)
  proxied.hostname = '127.0.0.1'
  proxied.port = String((server.address() as AddressInfo).port)
  return {
    url: proxied.toString(),
    loseReplyOf: (pattern) => new Promise<void>((resolve) => (armed = { pattern, lost: resolve })),
  }
}
