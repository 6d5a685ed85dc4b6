import type { Database, Kysely } from '@signals/db'
import { postgresOwnLegStore, type OwnLegStore } from '../../../../src/feeds/broker/projectx/own-leg-store.ts'

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
