import { sql, type Database, type Kysely } from '@signals/db'
import { OWN_LEGS_NOTE } from './entry-records.ts'
import { lockTradeLegs } from './broker-trades.ts'
import { noteRecord } from './trade-targets.ts'

/** One leg of a plan as kept: `sl` (Stop) or `tp` (Limit). */
export interface OwnLegRow {
  leg: 'sl' | 'tp'
  price: string
  orderId: number | null
  /** The entry's filled contracts the leg was placed or grown for. */
  covered: number
  /** Its Order/place was sent (or is on its way): never sent again, looked for by tag. */
  sent: boolean
  /** Sent once more after a lookup by its tag found nothing: never sent a third time. */
  resent: boolean
  /** ProjectX refused it: not sent again. */
  outcome: string | null
}

/** An own-legs plan of one entry (docs/decisions/projectx-adapter.md, "Our legs"). */
export interface OwnLegPlanRow {
  tag: string
  /** The record (alerts.id) and its user: what a failure is told on, and logged with. */
  recordId: number
  userId: string
  contractId: string
  side: 0 | 1
  /** The entry's contracts filled so far, each fill counted once. */
  filled: number
  /**
   * Set once the legs closed the trade (or were found done as the entry filled again) while the entry worked:
   * the contracts they stood for then. The entry's rest is cancelled; a fill past these is late (no stop).
   */
  closedFilled: number | null
  /** Late contracts closed at the market by us. */
  flattened: number
  legs: OwnLegRow[]
}

/** What is written before the entry goes: the record is the one whose `order_tag` is `tag`. */
export interface NewOwnLegPlan {
  tag: string
  brokerAccountId: number
  contractId: string
  side: 0 | 1
  stop: string
  target: string | null
}

/**
 * Writes the plan of the entry tagged `tag` before the entry is sent, for the record the tag names (its
 * `order_tag` is the tag's `sig-<id>`). False when no record carries it. Written again (a send retried), it
 * is kept as first written.
 */
export async function saveOwnLegPlan(db: Kysely<Database>, plan: NewOwnLegPlan): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ tag: string }>`
      INSERT INTO own_leg_plans (tag, record_id, broker_account_id, contract_id, side, created_at)
      SELECT ${plan.tag}, id, ${plan.brokerAccountId}, ${plan.contractId}, ${plan.side}, now() FROM alerts WHERE order_tag = substring(${plan.tag} from '^sig-[0-9]+')
      ON CONFLICT (tag) DO UPDATE SET tag = own_leg_plans.tag
      RETURNING tag`.execute(trx)
    if (rows.length === 0) return false
    const legs = [{ leg: 'sl', price: plan.stop }, ...(plan.target === null ? [] : [{ leg: 'tp', price: plan.target }])]
    for (const leg of legs) await sql`INSERT INTO own_legs (tag, leg, price) VALUES (${plan.tag}, ${leg.leg}, ${leg.price}) ON CONFLICT DO NOTHING`.execute(trx)
    return true
  })
}

interface JoinedRow {
  tag: string
  record_id: string
  user_id: string
  contract_id: string
  side: number
  filled: number
  closed_filled: number | null
  flattened: number
  leg: 'sl' | 'tp'
  price: string
  order_id: string | null
  covered: number
  sent: boolean
  resent: boolean
  outcome: string | null
}

/** The plans of the entries tagged `tags` (those that have one), with their legs. */
export async function ownLegPlans(db: Kysely<Database>, tags: readonly string[]): Promise<OwnLegPlanRow[]> {
  if (tags.length === 0) return []
  const { rows } = await sql<JoinedRow>`
    SELECT p.tag, p.record_id, a.user_id, p.contract_id, p.side, p.filled, p.closed_filled, p.flattened, l.leg, l.price::text AS price, l.order_id, l.covered,
           l.sent_at IS NOT NULL AS sent, l.resent_at IS NOT NULL AS resent, l.outcome
    FROM own_leg_plans p JOIN own_legs l ON l.tag = p.tag JOIN alerts a ON a.id = p.record_id
    WHERE p.tag = ANY(${tags}::text[])
    ORDER BY p.tag, l.leg`.execute(db)
  const plans = new Map<string, OwnLegPlanRow>()
  for (const row of rows) {
    let plan = plans.get(row.tag)
    if (!plan) {
      plan = { tag: row.tag, recordId: Number(row.record_id), userId: row.user_id, contractId: row.contract_id, side: row.side === 0 ? 0 : 1, filled: row.filled, closedFilled: row.closed_filled, flattened: row.flattened, legs: [] }
      plans.set(row.tag, plan)
    }
    plan.legs.push({ leg: row.leg, price: row.price, orderId: row.order_id === null ? null : Number(row.order_id), covered: row.covered, sent: row.sent, resent: row.resent, outcome: row.outcome })
  }
  return [...plans.values()]
}

/** Counts an entry fill into its plan, once per trade id whichever instance saw it. */
export async function countOwnLegFill(db: Kysely<Database>, tag: string, tradeId: number, quantity: number): Promise<void> {
  await sql`
    WITH counted AS (
      INSERT INTO own_leg_fills (tag, trade_id, quantity, counted_at)
      SELECT tag, ${tradeId}, ${quantity}, now() FROM own_leg_plans WHERE tag = ${tag}
      ON CONFLICT DO NOTHING
      RETURNING tag, quantity)
    UPDATE own_leg_plans p SET filled = p.filled + c.quantity FROM counted c WHERE p.tag = c.tag`.execute(db)
}

/** Marks a leg sent, before its Order/place goes: true for the one caller that marks it (sent once). */
export async function markOwnLegSent(db: Kysely<Database>, tag: string, leg: 'sl' | 'tp'): Promise<boolean> {
  const { rows } = await sql`UPDATE own_legs SET sent_at = now() WHERE tag = ${tag} AND leg = ${leg} AND sent_at IS NULL RETURNING leg`.execute(db)
  return rows.length > 0
}

/**
 * The leg's order (answered, or found by its tag) and the fills it was placed for; kept as first written. The
 * record's open trade, opened before the leg was placed (a fill seen while no session listened), is told it
 * (the trade keeper cancels the other leg by it when one closes the trade).
 */
export async function noteOwnLegPlaced(db: Kysely<Database>, tag: string, leg: 'sl' | 'tp', orderId: number, covered: number): Promise<void> {
  const column = leg === 'sl' ? sql.ref('stop_order_id') : sql.ref('target_order_id')
  await db.transaction().execute(async (trx) => {
    const { rows: plan } = await sql<{ record_id: string }>`SELECT record_id FROM own_leg_plans WHERE tag = ${tag}`.execute(trx)
    if (plan[0]) await lockTradeLegs(trx, Number(plan[0].record_id))
    const { rows } = await sql`
      UPDATE own_legs SET order_id = ${orderId}, covered = ${covered}, sent_at = COALESCE(sent_at, now())
      WHERE tag = ${tag} AND leg = ${leg} AND order_id IS NULL RETURNING leg`.execute(trx)
    if (rows.length === 0) return
    await sql`
      UPDATE trades t SET ${column} = ${orderId}
      FROM own_leg_plans p JOIN alerts a ON a.id = p.record_id
      WHERE p.tag = ${tag} AND a.order_tag = p.tag AND t.alert_record_id = a.id AND t.status = 'open' AND t.${column} IS NULL`.execute(trx)
  })
}

/**
 * Marks a leg sent once more (its first answer lost, a lookup by its tag found nothing): true for the one
 * caller that may send it again. ProjectX refuses a used customTag, so the two sendings make one leg at most.
 */
export async function markOwnLegResent(db: Kysely<Database>, tag: string, leg: 'sl' | 'tp'): Promise<boolean> {
  const { rows } = await sql`
    UPDATE own_legs SET resent_at = now() WHERE tag = ${tag} AND leg = ${leg} AND resent_at IS NULL AND order_id IS NULL AND outcome IS NULL RETURNING leg`.execute(db)
  return rows.length > 0
}

/** What the trader is told on the record about a leg the connector could not place or grow. */
export async function noteOwnLegTrouble(db: Kysely<Database>, recordId: number, note: string): Promise<void> {
  await noteRecord(db, recordId, `${OWN_LEGS_NOTE}${note}`.slice(0, 2_000))
}

/**
 * Moves a leg's `covered` from `from` to `to`, before its Order/modify goes: true for the one caller that
 * moves it, so a fill never grows a leg twice (a grow whose outcome is lost stays short, never over).
 */
export async function claimOwnLegGrowth(db: Kysely<Database>, tag: string, leg: 'sl' | 'tp', from: number, to: number): Promise<boolean> {
  const { rows } = await sql`UPDATE own_legs SET covered = ${to} WHERE tag = ${tag} AND leg = ${leg} AND covered = ${from} RETURNING leg`.execute(db)
  return rows.length > 0
}

/** ProjectX refused the leg: why, and it is not sent again. */
export async function noteOwnLegRefused(db: Kysely<Database>, tag: string, leg: 'sl' | 'tp', why: string): Promise<void> {
  await sql`UPDATE own_legs SET outcome = ${why} WHERE tag = ${tag} AND leg = ${leg} AND outcome IS NULL`.execute(db)
}

/**
 * Marks the plan closed (its legs closed the trade while the entry still worked), with the entry's contracts
 * the legs stood for, before the entry's rest is cancelled: true for the one caller that marks it.
 */
export async function closeOwnLegPlan(db: Kysely<Database>, tag: string, filled: number): Promise<boolean> {
  const { rows } = await sql`UPDATE own_leg_plans SET closed_at = now(), closed_filled = ${filled} WHERE tag = ${tag} AND closed_at IS NULL RETURNING tag`.execute(db)
  return rows.length > 0
}

/**
 * The plan's fills its record's trade counted, once that trade is closed: no later fill joins a closed trade
 * (`applyEntryFill` grows open trades only), so any other fill of the plan is late. Null while the trade is
 * open or not opened yet.
 */
export async function closedTradeCounted(db: Kysely<Database>, tag: string): Promise<number | null> {
  const { rows } = await sql<{ counted: string }>`
    SELECT COALESCE(SUM(f.quantity), 0) AS counted
    FROM own_leg_plans p
    JOIN trades t ON t.alert_record_id = p.record_id AND t.status = 'closed'
    LEFT JOIN own_leg_fills f ON f.tag = p.tag AND f.trade_id = ANY(t.entry_fill_ids)
    WHERE p.tag = ${tag}
    GROUP BY t.id`.execute(db)
  return rows[0] ? Number(rows[0].counted) : null
}

/**
 * The contracts closed off the record's trade while it stays open (its closed parts: a partial exit, the trader's
 * own close in part): a leg placed or grown later stands for the plan's fills less these. 0 with no open trade.
 */
export async function openTradeCut(db: Kysely<Database>, tag: string): Promise<number> {
  const { rows } = await sql<{ cut: string }>`
    SELECT COALESCE(SUM(c.quantity), 0) AS cut
    FROM own_leg_plans p
    JOIN trades t ON t.alert_record_id = p.record_id AND t.status = 'open'
    JOIN trades c ON c.parent_trade_id = t.id
    WHERE p.tag = ${tag}`.execute(db)
  return Number(rows[0]?.cut ?? 0)
}

/** Moves the plan's `flattened` from `from` to `to`, before the closing order of a late fill goes: true for the one caller that moves it. */
export async function claimOwnLegFlatten(db: Kysely<Database>, tag: string, from: number, to: number): Promise<boolean> {
  const { rows } = await sql`UPDATE own_leg_plans SET flattened = ${to} WHERE tag = ${tag} AND flattened = ${from} AND closed_at IS NOT NULL RETURNING tag`.execute(db)
  return rows.length > 0
}
