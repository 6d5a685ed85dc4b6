import { sql } from '@signals/db'

/**
 * Whether the entry record `a` (left-joined to a trade: null when the trade has none) is within the spec
 * route's reach, the default operator source's, for the trade's user (`userColumn`):
 * a record of no source; and a trade without a record too, unless its trader opted out of the default
 * source (docs/decisions/signal-sources.md, "Opting out of the default source"). Trades its own entries
 * opened before an opt-out stay in reach, as a source's do after an unsubscribe: never left unmanaged.
 */
export function inSpecRouteReach(userColumn: 't.user_id' | 'a.user_id') {
  return sql`(a.source_id IS NULL AND (a.id IS NOT NULL OR NOT EXISTS (SELECT 1 FROM default_source_opt_outs o WHERE o.user_id = ${sql.ref(userColumn)})))`
}

/**
 * Whether the entry record `a` (left-joined to a trade) is within the reach of `source` (`id` null: the
 * spec route's) for the trade's user: what a source's results, exits and instructions may act on.
 */
export function inSourceReach(source: { id: string | null }, userColumn: 't.user_id' | 'a.user_id') {
  return source.id === null ? inSpecRouteReach(userColumn) : sql`(a.source_id = ${source.id}::uuid)`
}
