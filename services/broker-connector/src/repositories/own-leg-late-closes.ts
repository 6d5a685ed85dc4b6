import { sql, type Database, type Kysely } from '@signals/db'

/** A late fill's close at the market as kept (own_leg_late_closes): its plan's tag, contract and side, and its order once taken. */
export interface LateCloseRow {
  tag: string
  contractId: string
  side: 0 | 1
  size: number
  sentAt: Date
  orderId: number | null
}

/** Kept just before the close goes (`sentAt`, our clock): whichever instance lists its order next names it. */
export async function noteLateCloseSent(db: Kysely<Database>, tag: string, sentAt: Date, size: number): Promise<void> {
  await sql`INSERT INTO own_leg_late_closes (tag, sent_at, size) VALUES (${tag}, ${sentAt}, ${size}) ON CONFLICT DO NOTHING`.execute(db)
}

/** The close certainly did not go (refused, rate limited, never sent): no order is taken for it. */
export async function withdrawLateClose(db: Kysely<Database>, tag: string, sentAt: Date): Promise<void> {
  await sql`DELETE FROM own_leg_late_closes WHERE tag = ${tag} AND sent_at = ${sentAt} AND order_id IS NULL`.execute(db)
}

/** The order taken for the close; kept as first written. */
export async function nameLateClose(db: Kysely<Database>, tag: string, sentAt: Date, orderId: number): Promise<void> {
  await sql`UPDATE own_leg_late_closes SET order_id = ${orderId} WHERE tag = ${tag} AND sent_at = ${sentAt} AND order_id IS NULL`.execute(db)
}

/** The account's late closes sent since `since`, their orders taken or not yet. */
export async function lateClosesOf(db: Kysely<Database>, brokerAccountId: number, since: Date): Promise<LateCloseRow[]> {
  const { rows } = await sql<{ tag: string; contract_id: string; side: number; size: number; sent_at: Date; order_id: string | null }>`
    SELECT c.tag, p.contract_id, p.side, c.size, c.sent_at, c.order_id
    FROM own_leg_late_closes c JOIN own_leg_plans p ON p.tag = c.tag
    WHERE p.broker_account_id = ${brokerAccountId} AND c.sent_at >= ${since}
    ORDER BY c.sent_at`.execute(db)
  return rows.map((row) => ({ tag: row.tag, contractId: row.contract_id, side: row.side === 0 ? 0 : 1, size: row.size, sentAt: new Date(row.sent_at), orderId: row.order_id === null ? null : Number(row.order_id) }))
}
