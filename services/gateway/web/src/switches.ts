// Stop in one click (issue 25, item 2): the live and auto-place switches on the status card save at once,
// each alone (an invalid field elsewhere never blocks them), with a warning before live trading goes off
// while trades are open.
import { api, reasonOf } from './api.ts'
import { ask } from './dialog.ts'
import { byId, say } from './dom.ts'
import { liveTradingChanged } from './settings-panel.ts'
import { currentStatus, onStatus, refreshStatus, type LiveStatus } from './status-card.ts'

const live = () => byId<HTMLInputElement>('switch-live')
const autoPlace = () => byId<HTMLInputElement>('switch-auto-place')

/** The switches follow the status read; a switch being saved shows what the trader chose until its save is read back. */
function renderSwitches(status: LiveStatus): void {
  if (live().disabled) return
  live().checked = status.liveTradingEnabled
  autoPlace().checked = status.autoPlaceOrdersEnabled
}

async function setLive(liveTrading: { enabled: boolean; autoPlaceOrders: boolean }, said: string): Promise<void> {
  const message = byId('switch-message')
  live().disabled = autoPlace().disabled = true
  try {
    await api('POST /api/trading-settings', { body: { settingKey: 'live_trading', settingValue: liveTrading } })
    liveTradingChanged(liveTrading)
    say(message, said, 'success')
  } catch (error) {
    say(message, `Not switched: ${reasonOf(error)}`, 'error')
  } finally {
    // Enabled again only once the status is read back, so the read cannot undo a click made meanwhile.
    await refreshStatus().catch(() => undefined)
    live().disabled = autoPlace().disabled = false
    const status = currentStatus()
    if (status) renderSwitches(status)
  }
}

export function wireSwitches(): void {
  onStatus(renderSwitches)
  live().addEventListener('change', () => void switchLive())
  autoPlace().addEventListener('change', () => {
    const status = currentStatus()
    const autoPlaceOrders = autoPlace().checked
    void setLive({ enabled: status?.liveTradingEnabled ?? false, autoPlaceOrders }, autoPlaceOrders ? 'Orders are placed automatically.' : 'Automatic order placement is off.')
  })
}

async function switchLive(): Promise<void> {
  const status = currentStatus()
  const enabled = live().checked
  if (!enabled && status && status.liveTradesCount > 0) {
    byId('live-off-text').textContent =
      `You have ${status.liveTradesCount} open trade(s). Switching live trading off closes the broker connection: their positions stay at the broker with their stop and target, and the platform no longer follows them. Use the kill switch to flatten them first.`
    if (!(await ask('live-off-dialog', 'live-off-confirm', 'live-off-cancel'))) {
      live().checked = true
      return
    }
  }
  await setLive({ enabled, autoPlaceOrders: status?.autoPlaceOrdersEnabled ?? false }, enabled ? 'Live trading is on.' : 'Live trading is off.')
}
