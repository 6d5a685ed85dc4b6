import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Counter } from 'prom-client'
import { AlertMessageV1, IntakeLogBatchV1, Streams, Subjects, contract } from '@signals/contracts'
import type { ConsumerHandle } from '@signals/bus'
import type { EntryFlow } from '../entry-flow.ts'
import type { Routing } from '../repositories/alerts.ts'
import type { SessionSource } from '../entry/plan-record.ts'
import { entryAlertHandler, intakeLogHandler, resultAlertHandler, testAlertHandler, type HandlerDeps } from './handlers.ts'
import { withRetryPolicy } from './retry-policy.ts'

export interface AlertConsumersOptions {
  routing: Routing
  entryFlow: EntryFlow
  /** Users' broker sessions for flattening on result alerts; null when this instance holds no feeds. */
  sessions: SessionSource | null
  concurrency: number
  maxAttempts: number
  ackWaitMs: number
}

const alertContract = contract(AlertMessageV1)
const intakeContract = contract(IntakeLogBatchV1)

/**
 * Durable consumer names. Every instance uses the same names, so running more connectors shares the
 * work instead of repeating it.
 */
export const Durables = {
  entry: 'broker-connector-alerts-entry',
  result: 'broker-connector-alerts-result',
  test: 'broker-connector-alerts-test',
  intakeLog: 'broker-connector-intake-log',
} as const

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
      maxAttempts: options.maxAttempts,
      sessions: options.sessions,
      onRecorded: (kind, count) => recorded.inc({ kind }, count),
      onTradesClosed: (count) => tradesClosed.inc(count),
    }
    const policy = { db: app.db, maxAttempts: options.maxAttempts, logger: app.log }
    const common = { maxAttempts: options.maxAttempts, concurrency: options.concurrency, ackWaitMs: options.ackWaitMs }
    const handles: ConsumerHandle[] = []

    app.addHook('onReady', async () => {
      handles.push(
        await app.bus.consume({
          ...common,
          stream: Streams.alerts.name,
          durable: Durables.entry,
          subject: Subjects.alertEntry,
          contract: alertContract,
          handler: withRetryPolicy(policy, entryAlertHandler(deps)),
        }),
        await app.bus.consume({
          ...common,
          stream: Streams.alerts.name,
          durable: Durables.result,
          subject: Subjects.alertResult,
          contract: alertContract,
          handler: withRetryPolicy(policy, resultAlertHandler(deps)),
        }),
        await app.bus.consume({
          ...common,
          stream: Streams.alerts.name,
          durable: Durables.test,
          subject: Subjects.alertTest,
          contract: alertContract,
          handler: withRetryPolicy(policy, testAlertHandler(deps)),
        }),
        await app.bus.consume({
          ...common,
          stream: Streams.intake.name,
          durable: Durables.intakeLog,
          subject: Subjects.intakeLog,
          contract: intakeContract,
          handler: withRetryPolicy(policy, intakeLogHandler(deps)),
        }),
      )
    })
    app.addHook('preClose', async () => {
      await Promise.all(handles.map((handle) => handle.stop()))
    })
  },
  { name: 'alert-consumers', dependencies: ['db', 'bus', 'metrics'] },
)
