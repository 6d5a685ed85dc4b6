import type { Database, Kysely } from '@signals/db'
import { BrokerError } from '../../feeds/broker/broker-adapter.ts'
import { waitExitLock } from '../../repositories/exit-locks.ts'

/** How long a close waits for a stops check of its contract (a few broker requests) before it waits its turn as a refusal does. */
const EXIT_LOCK_WAIT_MS = 30_000

/**
 * Runs a close's reads, cut and send holding the user's exit lock for the contract (repositories/exit-locks.ts),
 * so the stops check (targets/cover-gaps.ts) never reads the broker between the cut and the order; `work`
 * runs its queries on the lock's connection. Not got in time: nothing was done, the request waits (a
 * BrokerError that never left) and is tried again.
 */
export async function withExitLock<T>(db: Kysely<Database>, userId: string, contract: string, what: string, work: (connection: Kysely<Database>) => Promise<T>): Promise<T> {
  const run = await waitExitLock(db, userId, contract, EXIT_LOCK_WAIT_MS, work)
  if (!run.locked) throw new BrokerError('unavailable', `${what} waits for a check of the stops in ${contract} still under way`, null, true)
  return run.value
}
