// `pnpm soak`: the platform under a steady load for SOAK_MINUTES (default 10), never part of `pnpm test`.
// Starts every service as its own process on spare ports (two ingest, two broker connectors) with a fresh
// database and bus namespace, signs traders in through the gateway and sets them live on the paper broker,
// then sends entry and result alerts round-robin to the ingest instances while the traders use the web
// API. Every SOAK_SAMPLE_SECONDS it samples each service's memory (RSS and heap after GC) and the consumer lag; at the end it
// prints a markdown report (also written to SOAK_REPORT when set) and exits 1 when an alert was lost or
// doubled, a record got two orders, or the lag did not drain. Knobs: SOAK_TRADERS (20),
// SOAK_ENTRIES_PER_SECOND (2), SOAK_INGESTS (2), SOAK_CONNECTORS (2; they share the feeds by
// shard lease), SOAK_WARM_UP_SECONDS, SOAK_NODE_OPTIONS (extra Node.js flags for every service).
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { connectBus } from '@signals/bus'
import { TEST_NATS_URL, waitFor } from '@signals/test-support'
import { checkOutcome, openTrades, OrderCounter } from './soak/checks.ts'
import { runLoad, WebhookSender, type ApiTally } from './soak/load.ts'
import { startSoakPlatform, type SoakPlatform } from './soak/platform.ts'
import { renderReport, verdict } from './soak/report.ts'
import { consumerLag, takeSample, type Sample } from './soak/samples.ts'
import { setUpTraders, signIn } from './soak/traders.ts'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const knob = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`)
  return value
}
const minutes = knob('SOAK_MINUTES', 10)
const traderCount = knob('SOAK_TRADERS', 20)
const entriesPerSecond = knob('SOAK_ENTRIES_PER_SECOND', 2)
const ingestInstances = knob('SOAK_INGESTS', 2)
const connectorInstances = knob('SOAK_CONNECTORS', 2)
const sampleSeconds = knob('SOAK_SAMPLE_SECONDS', 30)
const warmUpSeconds = knob('SOAK_WARM_UP_SECONDS', Math.min(120, minutes * 12))
const ADMIN = 'soak-admin@soak.test'
const log = (line: string) => process.stderr.write(`soak: ${line}\n`)

const cleanup: (() => Promise<unknown>)[] = []
const orders = new OrderCounter()
let exitCode = 1
let platform: SoakPlatform | undefined
try {
  platform = await startSoakPlatform(
    root,
    { traders: traderCount, adminEmail: ADMIN, ingestInstances, connectorInstances, onBrokerRequest: (request) => orders.seen(request) },
    cleanup,
  )
  const bus = await connectBus({ url: TEST_NATS_URL, name: 'soak-lag', ensureTopology: false })
  cleanup.push(() => bus.close())
  exitCode = await soak(platform, bus)
} catch (error) {
  log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  for (const service of platform?.services ?? []) if (service.stderr.length) log(`${service.name} last said:\n  ${service.stderr.join('\n  ')}`)
} finally {
  for (const step of cleanup.reverse()) await step().catch((error: unknown) => log(`cleanup: ${String(error)}`))
}
process.exit(exitCode)

/** The load, the samples and the report; 0 when nothing was lost or doubled and the lag drained. */
async function soak(platform: SoakPlatform, bus: Awaited<ReturnType<typeof connectBus>>): Promise<number> {
  log(`platform up (${platform.services.map((service) => service.name).join(', ')}); setting up ${traderCount} traders`)
  const admin = await signIn(platform.gatewayUrl, platform.publicUrl, ADMIN)
  const traders = await setUpTraders(platform.gatewayUrl, platform.publicUrl, admin, traderCount)
  log(`traders live; load for ${minutes} min at ${entriesPerSecond} entry + ${entriesPerSecond} result alerts/s`)

  const samples: Sample[] = []
  const startedAt = Date.now()
  const sampleNow = async () => samples.push(await takeSample(bus, platform.namespace, platform.services, startedAt))
  await sampleNow()
  const sampler = setInterval(() => void sampleNow().then(() => log(`sample ${samples.length}: lag ${samples.at(-1)?.lag}`), (error: unknown) => log(`sample failed: ${String(error)}`)), sampleSeconds * 1000)
  const sender = new WebhookSender(platform.ingestUrls)
  const api: ApiTally = new Map()
  const runId = randomBytes(4).toString('hex')
  await runLoad({ runId, entriesPerSecond, durationMs: minutes * 60_000, brokerUrl: platform.broker.restUrl, ownerUserId: admin.userId, traders, sender, apiTally: api })
  clearInterval(sampler)
  await sampleNow()

  const stoppedAt = Date.now()
  const drained = await waitFor(async () => ((await consumerLag(bus, platform.namespace)).lag === 0 ? true : undefined), { timeoutMs: 120_000, intervalMs: 500 }).then(() => true, () => false)
  const drainSeconds = drained ? (Date.now() - stoppedAt) / 1000 : null
  // Close what is still open, as the session's end would, and let the flow settle before counting.
  await sender.send('result', `soak-${runId}-final`, { symbol: 'MNQ1!', result: 'Exit', exitPrice: platform.broker.price('MNQZ6') ?? '21000' })
  const settled = async () => (await openTrades(platform.database.url)) === 0 && (await consumerLag(bus, platform.namespace)).lag === 0
  await waitFor(async () => ((await settled()) ? true : undefined), { timeoutMs: 60_000, intervalMs: 500 }).catch(() => log('trades still open a minute after the final Exit alert'))
  const accepted = { entries: sender.tally.entryIds.filter((id) => sender.tally.accepted.has(id)), results: sender.tally.resultIds.filter((id) => sender.tally.accepted.has(id)) }
  const outcome = await checkOutcome(platform.database.url, accepted, traderCount, orders)
  const figures = { minutes, traders: traderCount, entriesPerSecond, ingestInstances, connectorInstances, warmUpSeconds, samples, drainSeconds, webhooks: sender.tally, api, outcome }
  const result = verdict(figures)
  const report = renderReport(figures, result)
  process.stdout.write(report)
  if (process.env.SOAK_REPORT) writeFileSync(process.env.SOAK_REPORT, report)
  return result.passed ? 0 : 1
}
