import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Counter } from 'prom-client'
import type { Bus, ConsumerHandle } from '@signals/bus'
import type { EntryFlow } from '../trading/entry/entry-flow.ts'
import type { Routing } from '../repositories/alerts.ts'
import type { FlattenDispatch } from '../trading/positions/flatten-dispatch.ts'
import { entryAlertHandler, intakeLogHandler, resultAlertHandler, testAlertHandler, type HandlerDeps } from './handlers.ts'
import { DurableConsumers } from '../shared/durables/table.ts'
import { startDurable, type DurableSettings } from '../shared/durables/start-durable.ts'

export interface AlertConsumersOptions {
  routing: Routing
  entryFlow: EntryFlow
  /** Hands result alerts' flattens to the instances holding the users' sessions. */
  flattens: FlattenDispatch
  concurrency: number
  maxAttempts: number
  ackWaitMs: number
  backoffMaxMs: number
}

/** The alert and intake-log durables' names (tests wait for them to drain). */
export const Durables = {
  entry: DurableConsumers.entry.durable,
  result: DurableConsumers.result.durable,
  test: DurableConsumers.test.durable,
  intakeLog: DurableConsumers.intakeLog.durable,
} as const

type Start = (bus: Bus, deps: HandlerDeps, settings: DurableSettings) => Promise<ConsumerHandle>

/** The rows of the durable table this plugin starts, each with its handler, in the order they start. */
const CONSUMERS: Start[] = [
  (bus, deps, settings) => startDurable(bus, DurableConsumers.entry, entryAlertHandler(deps), settings),
  (bus, deps, settings) => startDurable(bus, DurableConsumers.result, resultAlertHandler(deps), settings),
  (bus, deps, settings) => startDurable(bus, DurableConsumers.test, testAlertHandler(deps), settings),
  (bus, deps, settings) => startDurable(bus, DurableConsumers.intakeLog, intakeLogHandler(deps), settings),
]

/** Starts the alert and intake-log consumers once the app is ready; stops them (in-flight work done) on close. */
export const alertConsumersPlugin = fp(
  async (app: FastifyInstance, options: AlertConsumersOptions) => {
    const recorded = new Counter({
      name: 'connector_records_written_total',
      help: 'Rows written by the consumers (a redelivery writes none)',
      labelNames: ['kind'] as const,
      registers: [app.metrics],
    })
    const tradesClosed = new Counter({ name: 'connector_trades_closed_total', help: 'Trades closed by result alerts', registers: [app.metrics] })
    const deps: HandlerDeps = {
      db: app.db,
      routing: options.routing,
      entryFlow: options.entryFlow,
      logger: app.log,
      flattens: options.flattens,
      onRecorded: (kind, count) => recorded.inc({ kind }, count),
      onTradesClosed: (count) => tradesClosed.inc(count),
    }
    const settings = { maxAttempts: options.maxAttempts, concurrency: options.concurrency, ackWaitMs: options.ackWaitMs, backoffMaxMs: options.backoffMaxMs }
    const handles: ConsumerHandle[] = []

    app.addHook('onReady', async () => {
      // One after another: a failure to create a consumer stops the start before the next one exists.
      for (const start of CONSUMERS) handles.push(await start(app.bus, deps, settings))
    })
    // onClose hooks run in reverse registration order: this one before the db and bus plugins close
    // (test/consumers/close-order.test.ts), so in-flight handlers finish on a live pool.
    app.addHook('onClose', async () => {
      await Promise.all(handles.map((handle) => handle.stop()))
    })
  },
  { name: 'alert-consumers', dependencies: ['db', 'bus', 'metrics'] },
)
