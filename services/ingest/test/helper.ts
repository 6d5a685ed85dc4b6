import type { Test } from 'tap'
import { connectBus } from '@signals/bus'
import { loadConfig } from '@signals/config'
import { contract, IntakeLogBatchV1, NormalizedAlertV1, type IntakeLogBatch, type IntakeLogEntry, type NormalizedAlert } from '@signals/contracts'
import { eventually as pollUntil, TEST_NATS_URL, testNamespace, deleteNamespaceStreams } from '@signals/test-support'
import { buildApp } from '../src/app.ts'
import { ConfigSchema, type Config } from '../src/config.ts'

const Alert = contract(NormalizedAlertV1)
const IntakeLog = contract(IntakeLogBatchV1)

export interface Published<T> {
  subject: string
  body: T
}

/**
 * Everything published in a namespace, seen by a plain subscriber (so a resend the stream drops as a
 * duplicate is seen here too; stream contents are checked through `app.bus.jsm`). Every message is
 * checked against its contract on arrival; `invalid` lists those that broke it, and the test fails at
 * teardown when any did.
 */
export class BusWatcher {
  readonly alerts: Published<NormalizedAlert>[] = []
  readonly intake: IntakeLogEntry[] = []
  readonly intakeBatches: IntakeLogBatch[] = []
  readonly invalid: { subject: string; body: unknown }[] = []

  receive(subject: string, body: unknown): void {
    if (subject === 'intake.log') {
      if (IntakeLog.check(body)) {
        this.intakeBatches.push(body)
        this.intake.push(...body.entries)
      } else this.invalid.push({ subject, body })
      return
    }
    if (Alert.check(body)) this.alerts.push({ subject, body })
    else this.invalid.push({ subject, body })
  }

  /** Waits until `count` intake-log entries arrived (or fails after `timeoutMs`). */
  async intakeEntries(count: number, timeoutMs = 5_000): Promise<IntakeLogEntry[]> {
    await eventually(() => this.intake.length >= count, timeoutMs)
    return this.intake
  }

  async alertMessages(count: number, timeoutMs = 5_000): Promise<Published<NormalizedAlert>[]> {
    await eventually(() => this.alerts.length >= count, timeoutMs)
    return this.alerts
  }
}

export async function watchNamespace(t: Test, namespace: string, url = TEST_NATS_URL): Promise<BusWatcher> {
  const watcher = new BusWatcher()
  const { nc } = await connectBus({ url, name: 'ingest-test-watcher', ensureTopology: false })
  const subscription = nc.subscribe(`${namespace}.>`, {
    callback: (error, message) => {
      if (error) return
      let body: unknown
      try {
        body = message.json()
      } catch {
        body = message.string()
      }
      watcher.receive(message.subject.slice(namespace.length + 1), body)
    },
  })
  await nc.flush()
  t.teardown(async () => {
    subscription.unsubscribe()
    await nc.close()
    // Fails the test that published it: every message on the bus must match its contract.
    if (watcher.invalid.length > 0) throw new Error(`messages breaking their contract: ${JSON.stringify(watcher.invalid).slice(0, 2000)}`)
  })
  return watcher
}

/** The metrics token every test app is built with (/metrics and /ready detail need it). */
export const METRICS_TOKEN = 'ingest-test-metrics-token-0123456789'

/** Builds the ingest app against the shared NATS (its own bus namespace), watches what it publishes, tears down. */
export async function build(t: Test, overrides: Record<string, string> = {}) {
  const namespace = overrides.BUS_NAMESPACE ?? testNamespace()
  t.teardown(() => deleteNamespaceStreams(namespace))
  const config: Config = loadConfig(ConfigSchema, { ...process.env, LOG_LEVEL: 'silent', NODE_ENV: 'test', BUS_NAMESPACE: namespace, METRICS_TOKEN, ...overrides })
  const logLines: string[] = []
  const loggerStream = { write: (line: string) => logLines.push(line) } as unknown as NodeJS.WritableStream
  const app = await buildApp(config, { loggerStream })
  t.teardown(() => app.close())
  await app.ready()
  const watcher = await watchNamespace(t, namespace, config.NATS_URL)
  return { app, config, namespace, watcher, logLines }
}

/** Messages the stream of `subject` holds (after the server's duplicate window dropped resends). */
export async function streamMessageCount(app: Awaited<ReturnType<typeof build>>['app'], streamName: string): Promise<number> {
  const info = await app.bus.jsm.streams.info(app.bus.stream(streamName))
  return info.state.messages
}

/** Resolves when `predicate` holds, polling every 10 ms; rejects after `timeoutMs`. */
export const eventually = (predicate: () => boolean, timeoutMs = 5_000): Promise<void> =>
  pollUntil(predicate, { timeoutMs, intervalMs: 10 })
