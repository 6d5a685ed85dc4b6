// Closing one trade from its row (issue 25, item 2): the activity card's "Close" button asks here (the
// `signals:close-trade` event carries the trade); after a confirmation the trade's position is flattened.
import { api, reasonOf } from './api.ts'
import { ask } from './dialog.ts'
import { byId, say } from './dom.ts'

interface TradeToClose {
  id: string
  side: string
  contract: string
}

async function closeTrade(trade: TradeToClose): Promise<void> {
  const message = byId('switch-message')
  byId('close-trade-text').textContent =
    `The broker holds one position per contract: your whole ${trade.side} ${trade.contract} position is flattened, and the trade closes at the fill.`
  if (!(await ask('close-trade-dialog', 'close-trade-confirm', 'close-trade-cancel'))) return
  try {
    const closed = await api('POST /api/trades/:id/close', { params: { id: trade.id } })
    say(message, closed.exit === 'sent' ? `Trade closing: ${closed.detail}` : `The exit waits: ${closed.detail}`, closed.exit === 'sent' ? 'success' : 'error')
  } catch (error) {
    say(message, `Not closed: ${reasonOf(error)}`, 'error')
  }
}

export function wireCloseTrade(): void {
  document.addEventListener('signals:close-trade', (event) => void closeTrade((event as CustomEvent<TradeToClose>).detail))
}
