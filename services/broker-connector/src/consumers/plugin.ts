import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { Counter } from 'prom-client'
import type { Static, TSchema } from 'typebox'
import { AlertMessageV1, IntakeLogBatchV1, Streams, Subjects, contract, type Contract } from '@signals/contracts'
import type { Bus, ConsumeOptions, ConsumerHandle, MessageContext } from '@signals/bus'
import type { EntryFlow } from '../entry-flow.ts'
import type { Routing } from '../repositories/alerts.ts'
import type { FlattenDispatch } from '../positions/flatten-dispatch.ts'
import { entryAlertHandler, intakeLogHandler, resultAlertHandler, testAlertHandler, type HandlerDeps } from './handlers.ts'
import { withRetryPolicy, type RetryPolicyOptions } from './retry-policy.ts'

export interface AlertConsumersOptions {
  routing: Routing
  entryFlow: EntryFlow
  /** Hands result alerts' flattens to the instances holding the users' sessions. */
  flattens: FlattenDispatch
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

type Common = Pick<ConsumeOptions<TSchema>, 'maxAttempts' | 'concurrency' | 'ackWaitMs'>

/** One row of the consumer table: what it reads (stream, subject, durable, contract) and what handles it. */
function consumer<S extends TSchema>(row: {
  stream: string
  subject: string
  durable: string
  contract: Contract<S>
  handler: (deps: HandlerDeps) => (payload: Static<S>, context: MessageContext) => Promise<void>
}) {
  return {
    start: (bus: Bus, deps: HandlerDeps, policy: RetryPolicyOptions, common: Common) =>
      bus.consume({ ...common, stream: row.stream, subject: row.subject, durable: row.durable, contract: row.contract, handler: withRetryPolicy(policy, row.handler(deps)) }),
  }
}

/** Every consumer of the connector, in the order they start. */
const CONSUMERS = [
  consumer({ stream: Streams.alerts.name, subject: Subjects.alertEntry, durable: Durables.entry, contract: alertContract, handler: entryAlertHandler }),
  consumer({ stream: Streams.alerts.name, subject: Subjects.alertResult, durable: Durables.result, contract: alertContract, handler: resultAlertHandler }),
  consumer({ stream: Streams.alerts.name, subject: Subjects.alertTest, durable: Durables.test, contract: alertContract, handler: testAlertHandler }),
  consumer({ stream: Streams.intake.name, subject: Subjects.intakeLog, durable: Durables.intakeLog, contract: intakeContract, handler: intakeLogHandler }),
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
      maxAttempts: options.maxAttempts,
      flattens: options.flattens,
      onRecorded: (kind, count) => recorded.inc({ kind }, count),
      onTradesClosed: (count) => tradesClosed.inc(count),
    }
    const policy = { db: app.db, maxAttempts: options.maxAttempts, logger: app.log }
    const common = { maxAttempts: options.maxAttempts, concurrency: options.concurrency, ackWaitMs: options.ackWaitMs }
    const handles: ConsumerHandle[] = []

    app.addHook('onReady', async () => {
      // One after another: a failure to create a consumer stops the start before the next one exists.
      for (const consumer of CONSUMERS) handles.push(await consumer.start(app.bus, deps, policy, common))
    })
    // onClose hooks run in reverse registration order: this one before the db and bus plugins close
    // (test/consumers/close-order.test.ts), so in-flight handlers finish on a live pool.
    app.addHook('onClose', async () => {
      await Promise.all(handles.map((handle) => handle.stop()))
    })
  },
  { name: 'alert-consumers', dependencies: ['db', 'bus', 'metrics'] },
)
