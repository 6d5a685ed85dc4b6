import type { Test } from 'tap'
import type { Database, Kysely } from '@signals/db'
import { ProjectXAdapter } from '../../../../src/feeds/broker/projectx/adapter.ts'
import { postgresOwnLegStore, type OwnLegStore } from '../../../../src/feeds/broker/projectx/own-leg-store.ts'
import { publishAlert } from '../../../helper.ts'
import { mnqEntry, settledRecord } from '../../../trading-helper.ts'
import { ACCOUNTS, connectedProjectXTrader, eventually, netMnq } from './helper.ts'

/**
 * The connector's own-legs store (Postgres) with the database made away on demand: `failNext(call, n)` fails
 * the next `n` calls of one kind, `away()` every call from then on, as a failover or a closed pool does.
 * Every call is counted (`calls`), failed or not. `use(db)` once the app's database is known, before a session opens.
 */
export function databaseAway() {
  let inner: OwnLegStore | null = null
  let allAway = false
  const failing = new Map<string, number>()
  const calls: string[] = []
  const call = (name: string) => async (...args: unknown[]) => {
    calls.push(name)
    const left = failing.get(name) ?? 0
    if (allAway || left > 0) {
      failing.set(name, left - 1)
      throw new Error(`${name}: the database is away`)
    }
    if (inner === null) throw new Error('databaseAway: use(db) first')
    return (inner[name as keyof OwnLegStore] as (...args: unknown[]) => Promise<unknown>)(...args)
  }
  const store = new Proxy({} as OwnLegStore, { get: (_, name) => (name === 'durable' ? true : call(String(name))) })
  return {
    store,
    calls,
    use: (db: Kysely<Database>) => void (inner = postgresOwnLegStore(db)),
    failNext: (name: keyof OwnLegStore, count = 1) => void failing.set(name, count),
    away: () => void (allAway = true),
  }
}

/**
 * A market entry of 5 on a Position Brackets account, filled, whose legs wait for the own legs' retry: the
 * stop's marking as sent failed once (the database away a moment as the entry filled). Nothing placed yet.
 */
export async function legsWaitingForRetry(t: Test) {
  const database = databaseAway()
  const adapter = new ProjectXAdapter({ ownLegs: database.store })
  const { broker, app, db } = await connectedProjectXTrader(t, { accounts: [{ ...ACCOUNTS[0]!, bracketMode: 'position' }], build: { brokerAdapters: { projectx: adapter } }, built: (db) => database.use(db) })
  database.failNext('markSent')
  const entry = mnqEntry()
  await publishAlert(app, entry)
  const record = await settledRecord(db, entry.alertId)
  await eventually(() => netMnq(broker) === 5 && database.calls.includes('markSent'))
  return { database, broker, app, db, record }
}
