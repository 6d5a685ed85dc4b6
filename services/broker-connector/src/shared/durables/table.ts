import type { TSchema } from 'typebox'
import { AlertMessageV1, FeedCommandV1, IntakeLogBatchV1, Streams, Subjects, contract, type Contract } from '@signals/contracts'

/** One durable consumer: what it reads, under which name, and whether its messages are handled in order. */
export interface DurableRow<S extends TSchema> {
  stream: string
  subject: string
  /** Every instance uses the same name, so running more connectors shares the work instead of repeating it. */
  durable: string
  contract: Contract<S>
  /** One message at a time, in order (feed commands: a stop must not overtake its start). */
  inOrder: boolean
}

const row = <S extends TSchema>(value: DurableRow<S>): DurableRow<S> => value
const alertContract = contract(AlertMessageV1)

/**
 * Every durable consumer of the connector, in the order they start. All of them run under one retry
 * policy (start-durable.ts, docs/decisions/consumers.md): a dependency outage is waited out, a message
 * that can never be handled is dead-lettered with its reason.
 */
export const DurableConsumers = {
  entry: row({ stream: Streams.alerts.name, subject: Subjects.alertEntry, durable: 'broker-connector-alerts-entry', contract: alertContract, inOrder: false }),
  result: row({ stream: Streams.alerts.name, subject: Subjects.alertResult, durable: 'broker-connector-alerts-result', contract: alertContract, inOrder: false }),
  test: row({ stream: Streams.alerts.name, subject: Subjects.alertTest, durable: 'broker-connector-alerts-test', contract: alertContract, inOrder: false }),
  intakeLog: row({ stream: Streams.intake.name, subject: Subjects.intakeLog, durable: 'broker-connector-intake-log', contract: contract(IntakeLogBatchV1), inOrder: false }),
  feedCommands: row({ stream: Streams.feeds.name, subject: 'feeds.*', durable: 'broker-connector-feeds', contract: contract(FeedCommandV1), inOrder: true }),
}
