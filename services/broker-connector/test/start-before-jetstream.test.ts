import t, { type Test } from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { loadConfig } from '@signals/config'
import { createTestDatabase, freePort, stopChild, testNamespace, waitForPort } from '@signals/test-support'
import { buildApp } from '../src/app.ts'
import { ConfigSchema } from '../src/config.ts'
import { jsonLogStream } from './helper.ts'

const NATS_SERVER = '/usr/sbin/nats-server'

/** close-with-grace's delay in runService: a close longer than this is cut and the process exits 1. */
const CLOSE_GRACE_MS = 10_000

type App = Awaited<ReturnType<typeof buildApp>>

/** A nats-server of this test's own on `port`: with JetStream (its store in `storeDir`) or without. */
async function natsServer(port: number, storeDir?: string): Promise<ChildProcess> {
  const jetStream = storeDir === undefined ? [] : ['-js', '-sd', storeDir]
  const child = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), ...jetStream], { stdio: 'ignore' })
  await waitForPort(port)
  return child
}

/**
 * The connector's configuration on NATS at `port`, with a database of its own. One teardown, in order: the
 * app (if built) closes before its NATS server stops and its database is dropped.
 */
async function connectorConfig(t: Test, port: number, cleanUp: { app?: App; server?: ChildProcess; storeDir: string }) {
  const database = await createTestDatabase()
  t.teardown(async () => {
    await cleanUp.app?.close()
    await stopChild(cleanUp.server)
    await rm(cleanUp.storeDir, { recursive: true, force: true })
    await database.drop()
  })
  return loadConfig(ConfigSchema, { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'test', DATABASE_URL: database.url, BUS_NAMESPACE: testNamespace(), NATS_URL: `nats://127.0.0.1:${port}`, FEED_LEASE_TTL_MS: '3000' })
}

t.test('a connector started before JetStream answers waits for it (saying so) and becomes ready once it does', async (t) => {
  const port = await freePort()
  const cleanUp: { app?: App; server?: ChildProcess; storeDir: string } = { storeDir: await mkdtemp(path.join(tmpdir(), 'nats-late-js-')) }
  // NATS is up but its JetStream is not (as on a node whose cluster has no meta leader yet): no responders.
  cleanUp.server = await natsServer(port)
  const config = await connectorConfig(t, port, cleanUp)

  let waiting: (line: string) => void = () => undefined
  const sawWaiting = new Promise<string>((resolve) => (waiting = resolve))
  const logStream = jsonLogStream<{ msg: string }>((line) => {
    if (line.msg.startsWith('JetStream not ready yet')) waiting(line.msg)
  })
  const starting = (async () => {
    cleanUp.app = await buildApp(config, { loggerStream: logStream, feeds: true })
    await cleanUp.app.ready()
    return cleanUp.app
  })()
  const first = await Promise.race([sawWaiting.then((line) => ({ waiting: line })), starting.then(() => ({ ready: true }), (error: unknown) => ({ failed: String(error) }))])
  t.match(first, { waiting: /JetStream not ready yet/ }, `the start waits for JetStream, saying so, rather than failing (${JSON.stringify(first)})`)
  if (!('waiting' in first)) return

  // JetStream comes up on the same address: the connection moves to it and the start goes on.
  await stopChild(cleanUp.server)
  cleanUp.server = await natsServer(port, cleanUp.storeDir)
  const app = await starting
  const ready = await app.inject('/ready')
  t.equal(ready.statusCode, 200, `ready once JetStream answers: ${ready.body}`)
  t.ok(app.feedLeases.heldShards().length > 0, 'and the lone instance holds the feed shards')
})

t.test('an app whose start failed while JetStream went away closes within the grace', async (t) => {
  const port = await freePort()
  const cleanUp: { app?: App; server?: ChildProcess; storeDir: string } = { storeDir: await mkdtemp(path.join(tmpdir(), 'nats-gone-')) }
  const server = await natsServer(port, cleanUp.storeDir)
  cleanUp.server = server
  const config = await connectorConfig(t, port, cleanUp)

  const app = await buildApp(config, { loggerStream: jsonLogStream(() => undefined), feeds: true })
  cleanUp.app = app
  // The last start step: JetStream goes away (every node of a forming cluster busy electing) and the step
  // fails, as a consumer's creation did in the cluster test; the feed leases were taken by then.
  app.addHook('onReady', async () => {
    await stopChild(server)
    throw new Error('a start step failed')
  })
  await t.rejects(async () => {
    await app.ready()
  }, /a start step failed/)
  t.ok(app.feedLeases.heldShards().length > 0, 'the feed shards were held when the start failed')

  const closing = Date.now()
  // Bounded, so a close that hangs fails this test rather than its time-out.
  let bound: NodeJS.Timeout | undefined
  const closed = await Promise.race([app.close().then(() => true), new Promise<false>((resolve) => (bound = setTimeout(() => resolve(false), 2 * CLOSE_GRACE_MS)))])
  clearTimeout(bound)
  if (closed) cleanUp.app = undefined
  const tookMs = Date.now() - closing
  t.ok(closed, `the close finished (${tookMs} ms)`)
  t.ok(tookMs < CLOSE_GRACE_MS * 0.75, `the close finished in ${tookMs} ms, well within the ${CLOSE_GRACE_MS} ms grace`)
})
