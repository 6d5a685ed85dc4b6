import { BrokerError, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'

/** Cancels an order; false when the broker says it is done already (filled or cancelled meanwhile). */
export async function cancelQuietly(session: BrokerSession, orderId: number): Promise<boolean> {
  try {
    await session.cancelOrder(orderId)
    return true
  } catch (error) {
    if (error instanceof BrokerError && error.kind === 'rejected') return false
    throw error
  }
}
