import { isDone, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import type { Database, Kysely } from '@signals/db'
import { targetPlanOf } from '../../repositories/trade-targets.ts'
import { balanceExits } from './balance-exits.ts'
import { findTargets } from './find-targets.ts'
import type { TargetContext } from './target-context.ts'

/** A trade a partial close reaches, oldest first (its fill closes them first in, first out). */
interface ClosedTrade {
  quantity: string
  alert_record_id: number | null
}

/**
 * Before a partial close of `quantity` is sent: each trade it will reach that has targets paired with their
 * own stops has its exits cut to what will be left (the farthest pair first, both legs; then the
 * whole-position stop), so that once the close fills no stop or target closes more than is held. Until the
 * close fills, those contracts have fewer exits than the position (the accepted side).
 */
export async function makeRoomForClose(db: Kysely<Database>, session: BrokerSession, userId: string, trades: readonly ClosedTrade[], quantity: number): Promise<void> {
  const working = new Map((await session.listOrders()).map((order) => [order.id, order]))
  const context: TargetContext = {
    db,
    // Nothing is placed here (only cut), so nothing is logged.
    logger: { info: () => undefined, warn: () => undefined },
    userId,
    session,
    isLive: (orderId) => { const order = working.get(orderId); return order !== undefined && !isDone(order.status) },
    orders: () => working.values(),
  }
  let left = quantity
  for (const trade of trades) {
    if (left <= 0) break
    const taken = Math.min(left, Number(trade.quantity))
    left -= taken
    if (trade.alert_record_id === null) continue
    const row = await targetPlanOf(db, trade.alert_record_id, userId)
    if (!row || row.status !== 'open') continue
    const pairs = await findTargets(context, trade.alert_record_id)
    if (pairs.length > 0) await balanceExits(context, trade.alert_record_id, { ...row, quantity: Number(trade.quantity) - taken }, pairs)
  }
}
