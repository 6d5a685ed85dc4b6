import type { Database, Kysely } from '@signals/db'
import { BrokerError, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import { filledOnTrade, noteTrade } from '../../repositories/trade-exits.ts'

/**
 * After a fill of a limit entry's remainder sent at the market without legs of its own (`.ma`, issue 24
 * item 6): the trade's stop and target, the limit's legs armed by its part filled, grow to the whole open
 * position (as Tradovate's OSO grows them with the limit's own fills). A leg that cannot grow, or a trade
 * without one, is said on the trade in capitals: the position is then partly unprotected.
 */
export async function growLegsToTrade(db: Kysely<Database>, session: BrokerSession, tradeId: number, live: (orderId: number | null) => orderId is number): Promise<void> {
  const trade = await db.selectFrom('trades').select(['quantity', 'stop_order_id', 'target_order_id']).where('id', '=', tradeId).executeTakeFirst()
  if (!trade) return
  const open = Number(trade.quantity)
  const problems: string[] = []
  for (const [name, id] of [['stop', trade.stop_order_id], ['target', trade.target_order_id]] as const) {
    const orderId = id === null ? null : Number(id)
    if (!live(orderId)) {
      problems.push(`no working ${name}`)
      continue
    }
    try {
      await session.resizeOrder(orderId, (await filledOnTrade(db, tradeId, orderId)) + open)
    } catch (error) {
      if (!(error instanceof BrokerError)) throw error
      problems.push(`the ${name} could not grow (${error.message})`)
    }
  }
  if (problems.length > 0) await noteTrade(db, tradeId, `the remainder sent at the market is NOT COVERED by the trade's legs: ${problems.join('; ')}`)
}
