import t from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { connect } from '@nats-io/transport-node'
import { jetstreamManager } from '@nats-io/jetstream'
import { freePort, startPrivateNats, stopChild, waitForPort } from '@signals/test-support'
import { connectBus, isJetStreamNotReady, untilJetStreamReady } from '../src/index.ts'

/** A nats-server of this test's own on `port`: with JetStream (its store in `storeDir`) or without. */
async function natsServer(port: number, storeDir?: string): Promise<ChildProcess> {
  const jetStream = storeDir === undefined ? [] : ['-js', '-sd', storeDir]
  const child = spawn('/usr/sbin/nats-server', ['-a', '127.0.0.1', '-p', String(port), ...jetStream], { stdio: 'ignore' })
  await waitForPort(port)
  return child
}

/** A logger keeping its warn lines, resolving `firstWarn` at the first. */
function warnings() {
  const lines: string[] = []
  let seen: (line: string) => void = () => undefined
  const firstWarn = new Promise<string>((resolve) => (seen = resolve))
  const logger = {
    info: () => undefined,
    error: () => undefined,
    warn: (_object: object, message: string) => {
      lines.push(message)
      seen(message)
    },
  }
  return { lines, firstWarn, logger }
}

t.test('connectBus against a NATS whose JetStream is not up yet waits for it, saying so, and ensures the streams once it answers', async (t) => {
  const port = await freePort()
  const storeDir = await mkdtemp(path.join(tmpdir(), 'nats-late-js-'))
  let server = await natsServer(port)
  t.teardown(async () => {
    await stopChild(server)
    await rm(storeDir, { recursive: true, force: true })
  })
  const { firstWarn, logger } = warnings()
  const connecting = connectBus({ url: `nats://127.0.0.1:${port}`, name: 'late-jetstream', logger })
  const first = await Promise.race([firstWarn.then((line) => ({ waiting: line })), connecting.then(() => ({ connected: true }), (error: unknown) => ({ failed: String(error) }))])
  t.match(first, { waiting: /^JetStream not ready yet .*the streams ensured tried again in \d+ ms$/ }, `waits rather than failing (${JSON.stringify(first)})`)
  if (!('waiting' in first)) return

  await stopChild(server)
  server = await natsServer(port, storeDir)
  const bus = await connecting
  t.teardown(() => bus.close())
  t.equal((await bus.jsm.streams.info('ALERTS')).config.name, 'ALERTS', 'the streams exist once JetStream answers')
})

t.test('untilJetStreamReady: "not yet" is tried again only within its bound; any other error at once', async (t) => {
  const port = await freePort()
  const server = await natsServer(port)
  t.teardown(() => stopChild(server))
  const nc = await connect({ servers: `nats://127.0.0.1:${port}` })
  t.teardown(() => nc.close())
  const { lines, logger } = warnings()
  let tries = 0
  const started = Date.now()
  const error: unknown = await untilJetStreamReady('a manager made', () => (tries++, jetstreamManager(nc)), { logger, nc, withinMs: 1_000, initialDelayMs: 100 }).catch((failure: unknown) => failure)
  t.ok(isJetStreamNotReady(error), `the last "not yet" is thrown past the bound (${String(error)})`)
  t.ok(tries >= 2 && lines.length === tries - 1, `tried ${tries} times, a line for each wait`)
  t.ok(Date.now() - started < 5_000, 'and gave up within about its bound')

  const withJetStream = await startPrivateNats()
  t.teardown(() => withJetStream.destroy())
  const other = await connect({ servers: withJetStream.url })
  t.teardown(() => other.close())
  const jsm = await jetstreamManager(other)
  let calls = 0
  const missing: unknown = await untilJetStreamReady('a stream read', () => (calls++, jsm.streams.info('NO_SUCH_STREAM')), { logger, nc: other }).catch((failure: unknown) => failure)
  t.notOk(isJetStreamNotReady(missing), `a stream not found is no "not yet" (${String(missing)})`)
  t.equal(calls, 1, 'and is thrown at once')
})
