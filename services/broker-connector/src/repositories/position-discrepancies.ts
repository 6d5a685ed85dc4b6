import { sql, type ColumnOf, type Database, type DiscrepancyKind, type Kysely, type RowOf } from '@signals/db'
import type { BrokerScope } from './broker-trades.ts'

/** Our open trades in one contract on the session's account and venue: their signed quantity and ids. */
export type ContractBook = RowOf<'trades', 'contract'> & {
  broker_contract_id: NonNullable<ColumnOf<'trades', 'broker_contract_id'>>
  /** Signed: longs minus shorts. */
  quantity: number
  trade_ids: ColumnOf<'trades', 'id'>[]
}

/**
 * Trades of the session's account and venue, exactly. A trade from before accounts were recorded is not
 * counted: the reconciler acts on what it compares (ends trades, cancels legs), and such a trade may belong
 * to another account of the user, whose session would be wronged. Its position shows as one none of our
 * trades is in (protected by its legs, so left and told).
 */
const inScope = (scope: BrokerScope) => sql`t.broker_account_id = ${scope.accountId} AND t.broker = ${scope.broker} AND t.environment = ${scope.environment}`

/** The user's open broker-backed trades on the account, summed per contract. */
export async function openTradeBooks(db: Kysely<Database>, userId: string, scope: BrokerScope): Promise<ContractBook[]> {
  const result = await sql<ContractBook>`
    SELECT t.broker_contract_id::float8 AS broker_contract_id, max(t.contract) AS contract,
           sum(CASE WHEN t.side = 'LONG' THEN t.quantity ELSE -t.quantity END)::int AS quantity, array_agg(t.id::int ORDER BY t.id) AS trade_ids
    FROM trades t
    WHERE t.user_id = ${userId} AND t.status = 'open' AND t.broker_contract_id IS NOT NULL AND ${inScope(scope)}
    GROUP BY t.broker_contract_id`.execute(db)
  return result.rows
}

/** Names of contracts the user's trades (any status) were in, by broker contract id. */
export async function contractNames(db: Kysely<Database>, userId: string, contractIds: readonly number[]): Promise<Map<number, string>> {
  if (contractIds.length === 0) return new Map()
  const result = await sql<{ id: number; contract: string }>`
    SELECT DISTINCT ON (broker_contract_id) broker_contract_id::float8 AS id, contract FROM trades
    WHERE user_id = ${userId} AND broker_contract_id = ANY(${contractIds}::bigint[]) AND contract IS NOT NULL
    ORDER BY broker_contract_id, id DESC`.execute(db)
  return new Map(result.rows.map((row) => [row.id, row.contract]))
}

/**
 * Ends open trades the broker holds no position for: `cancelled` (a closed trade has an exit price and a
 * PnL, and none is known; none is made up), with the reason on the trade and when it was found. Conditional
 * on still open. Returns the ids ended.
 */
export async function closeUnbacked(db: Kysely<Database>, ids: readonly number[], note: string): Promise<number[]> {
  if (ids.length === 0) return []
  const result = await sql<{ id: number }>`
    UPDATE trades SET status = 'cancelled', closed_at = now(), exit_note = ${note}
    WHERE id = ANY(${ids}::bigint[]) AND status = 'open'
    RETURNING id::int AS id`.execute(db)
  return result.rows.map((row) => row.id)
}

/** A record named by a tag on a working broker order: its status and its trade's, if any. */
export type TaggedRecord = RowOf<'alerts', 'id' | 'status' | 'refusal_code'> & { trade_status: ColumnOf<'trades', 'status'> | null }

export async function taggedRecords(db: Kysely<Database>, userId: string, recordIds: readonly number[]): Promise<Map<number, TaggedRecord>> {
  if (recordIds.length === 0) return new Map()
  const result = await sql<TaggedRecord>`
    SELECT a.id::int AS id, a.status, a.refusal_code, t.status AS trade_status
    FROM alerts a LEFT JOIN trades t ON t.alert_record_id = a.id
    WHERE a.user_id = ${userId} AND a.id = ANY(${recordIds}::bigint[])`.execute(db)
  return new Map(result.rows.map((row) => [row.id, row]))
}

export interface Discrepancy {
  kind: DiscrepancyKind
  contractId: number
  contract: string | null
  brokerQty: number
  ourQty: number
  orderId: number | null
  action: string
  reason: string
  /** Repaired at once (kept as history) or left open until the broker and our trades agree. */
  resolved: boolean
}

/**
 * Keeps a finding: a repair is a resolved row of its own; an open difference is one row per account,
 * contract and kind, brought up to date each time it is seen again. Returns the row's id.
 */
export async function recordDiscrepancy(db: Kysely<Database>, userId: string, scope: BrokerScope, found: Discrepancy): Promise<number> {
  const values = sql`${userId}, ${scope.broker}, ${scope.environment}, ${scope.accountId}, ${found.contractId}, ${found.contract}, ${found.kind},
    ${found.brokerQty}, ${found.ourQty}, ${found.orderId}, ${found.action}, ${found.reason.slice(0, 1_000)}`
  const columns = sql`(user_id, broker, environment, broker_account_id, broker_contract_id, contract, kind, broker_qty, our_qty, order_id, action, reason`
  const result = found.resolved
    ? await sql<{ id: number }>`INSERT INTO position_discrepancies ${columns}, resolved_at) VALUES (${values}, now()) RETURNING id::int AS id`.execute(db)
    : await sql<{ id: number }>`
        INSERT INTO position_discrepancies ${columns}) VALUES (${values})
        ON CONFLICT (user_id, broker, environment, broker_account_id, broker_contract_id, kind) WHERE resolved_at IS NULL
        DO UPDATE SET broker_qty = EXCLUDED.broker_qty, our_qty = EXCLUDED.our_qty, action = EXCLUDED.action, reason = EXCLUDED.reason,
          contract = COALESCE(EXCLUDED.contract, position_discrepancies.contract), last_seen_at = now()
        RETURNING id::int AS id`.execute(db)
  return result.rows[0]!.id
}

const ofAccount = (userId: string, scope: BrokerScope) =>
  sql`user_id = ${userId} AND broker = ${scope.broker} AND environment = ${scope.environment} AND broker_account_id = ${scope.accountId}`

/** Contracts of the account with an open difference (a pass looks at each again, to resolve it). */
export async function openDiscrepancyContracts(db: Kysely<Database>, userId: string, scope: BrokerScope): Promise<{ contractId: number; kind: DiscrepancyKind }[]> {
  const result = await sql<{ contractId: number; kind: DiscrepancyKind }>`
    SELECT broker_contract_id::float8 AS "contractId", kind FROM position_discrepancies WHERE ${ofAccount(userId, scope)} AND resolved_at IS NULL`.execute(db)
  return result.rows
}

/** Open differences of these kinds in the contract are resolved: the broker and our side agree now. */
export async function resolveDiscrepancies(db: Kysely<Database>, userId: string, scope: BrokerScope, contractId: number, kinds: readonly DiscrepancyKind[]): Promise<number> {
  const result = await sql`
    UPDATE position_discrepancies SET resolved_at = now()
    WHERE ${ofAccount(userId, scope)} AND broker_contract_id = ${contractId} AND kind = ANY(${kinds}::text[]) AND resolved_at IS NULL`.execute(db)
  return Number(result.numAffectedRows ?? 0n)
}

/**
 * Why new entries in the contract must wait: the account's open difference there (a position of the
 * broker's that our trades do not account for), as its reason, or null. The account of the session's venue
 * only: account ids are unique per broker and environment, not across them.
 */
export async function openDiscrepancyIn(db: Kysely<Database>, userId: string, scope: BrokerScope, contractId: number): Promise<string | null> {
  const row = await db
    .selectFrom('position_discrepancies')
    .select('reason')
    .where('user_id', '=', userId)
    .where('broker', '=', scope.broker)
    .where('environment', '=', scope.environment)
    .where('broker_account_id', '=', scope.accountId)
    .where('broker_contract_id', '=', contractId)
    .where('resolved_at', 'is', null)
    .where('kind', 'in', ['untracked_position', 'quantity_differs'])
    .orderBy('id', 'desc')
    .executeTakeFirst()
  return row?.reason ?? null
}

/** The user's differences, newest first (the trades API). */
export async function listDiscrepancies(db: Kysely<Database>, userId: string, limit: number) {
  return db
    .selectFrom('position_discrepancies')
    .select(['id', 'contract', 'broker_account_id', 'kind', 'broker_qty', 'our_qty', 'order_id', 'action', 'reason', 'found_at', 'last_seen_at', 'resolved_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
}

/** Whether an entry of the user's is on its way to the broker (sent, its outcome not known yet). */
export async function entryInFlight(db: Kysely<Database>, userId: string): Promise<boolean> {
  const result = await sql<{ n: number }>`SELECT count(*)::int AS n FROM alerts WHERE user_id = ${userId} AND status = 'placing'`.execute(db)
  return (result.rows[0]?.n ?? 0) > 0
}
