import { sql, type Database, type Kysely } from '@signals/db'
import type { PaperBroker } from '@signals/dev-paper-broker'
import { TradovateAdapter } from '../../../src/feeds/broker/tradovate/adapter.ts'
import { PASSWORD } from '../../feeds/feed-helper.ts'

// Records left `received` or `placing` past their time, and the sweep that settles them (sweep.test.ts,
// outcome-order-during-look.test.ts). The grace is never shorter than the age limit: both short here.
export const SWEEP = { ENTRY_SWEEP_INTERVAL_MS: '200', ENTRY_OUTCOME_GRACE_MS: '5000', ENTRY_MAX_AGE_MS: '5000' }

export interface Stranded {
  /** An id reserved beforehand (`reserveId`), else the next one. */
  id?: number
  userId?: string
  status: 'received' | 'placing'
  /** SQL interval text from now, e.g. `-5 minutes`. */
  receivedAt: string
  createdAt?: string
  sentAt?: string
}

/** A record as a crashed instance or a lost message leaves it. */
export async function stranded(db: Kysely<Database>, record: Stranded): Promise<number> {
  const placing = record.status === 'placing'
  const { rows } = await sql<{ id: number }>`
    INSERT INTO alerts (id, alert_id, user_id, owner_user_id, symbol, root, action, entry_price, sl, tp, raw_data, received_at, created_at, status,
                        send_attempts, sent_at, order_quantity, contract)
    OVERRIDING SYSTEM VALUE VALUES (${record.id ?? sql`nextval(pg_get_serial_sequence('alerts', 'id'))`}, gen_random_uuid()::text, ${record.userId ?? 'u-0'}, 'owner', 'MNQ1!', 'MNQ', 'LONG', 21000, 20950, 21100, '{}'::jsonb,
            now() + ${record.receivedAt}::interval, now() + ${record.createdAt ?? record.receivedAt}::interval, ${record.status},
            ${placing ? 1 : 0}, ${placing ? sql`now() + ${record.sentAt ?? record.receivedAt}::interval` : null}, ${placing ? 5 : null}, ${placing ? 'MNQZ6' : null})
    RETURNING id::int AS id`.execute(db)
  const id = rows[0]?.id as number
  if (placing) await sql`UPDATE alerts SET order_tag = 'sig-' || id WHERE id = ${id}`.execute(db)
  return id
}

/** The id the next record will have, taken now (the order of a gone holder can then exist before its record is seen). */
export async function reserveId(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ id: number }>`SELECT nextval(pg_get_serial_sequence('alerts', 'id'))::int AS id`.execute(db)
  return rows[0]?.id as number
}

/**
 * An order placed under `tag` over a session of its own, as an instance that then died would have: a market
 * entry unless `resting` (a limit below the market, which keeps working: no event of it follows).
 */
export async function orderOfGoneInstance(broker: PaperBroker, tag: string, resting = false) {
  const adapter = new TradovateAdapter({ heartbeatMs: 200 })
  const session = await adapter.openSession(
    { restUrl: broker.restUrl, wsUrl: broker.wsUrl, mdUrl: broker.mdUrl },
    { username: 'trader0', password: PASSWORD, appId: 'signals', appVersion: '1.0', cid: 8, sec: 'app-secret-value', deviceId: null, account: 'DEMO9000' },
    { onLost: () => undefined, onEvent: () => undefined },
  )
  try {
    const contract = await session.findContract('MNQZ6')
    const entry = resting ? { entryType: 'Limit' as const, entryPrice: '20900', stopPrice: '20850' } : { entryType: 'Market' as const, entryPrice: null, stopPrice: '20950' }
    return await session.placeBracket({ tag, contract, action: 'Buy', quantity: 5, ...entry, targetPrice: '21100' })
  } finally {
    session.close()
  }
}
