import { isDependencyDown } from '@signals/http-kit'
import { BrokerError } from '../../feeds/broker/broker-adapter.ts'

/**
 * SQLSTATE classes that pass: a connection lost (08), a transaction rolled back to be retried (40:
 * serialization failure, deadlock), resources short (53), an operator's intervention or a time-out (57),
 * a system error (58).
 */
const PASSING_SQL_CLASSES = new Set(['08', '40', '53', '57', '58'])

/**
 * Whether applying a broker event failed because a dependency is down or busy (Postgres, the broker):
 * such an event is tried again (the session is reopened, the snapshot replays it), never set aside. Any
 * other failure (a constraint or a value the database refuses, a fault of ours) will fail the same way
 * every time: the event is set aside so it cannot stop the session.
 */
export function isOutage(error: unknown): boolean {
  if (error instanceof BrokerError || isDependencyDown(error)) return true
  const code = (error as { code?: unknown } | undefined)?.code
  return typeof code === 'string' && code.length === 5 && PASSING_SQL_CLASSES.has(code.slice(0, 2))
}

/** The feed status's sentence for the trader, or null when nothing was set aside in this session. */
export function setAsideNote(count: number): string | null {
  if (count === 0) return null
  return `${count} broker event${count === 1 ? '' : 's'} could not be applied and ${count === 1 ? 'was' : 'were'} set aside (support can see why)`
}
