// The kill switch (issue 25, item 2): after a confirmation, flattens and cancels everything at the broker and
// switches auto-place off; the last use is shown under it.
import { api, reasonOf } from './api.ts'
import { ask } from './dialog.ts'
import { byId, formatTime, say } from './dom.ts'
import { liveTradingChanged } from './settings-panel.ts'
import { currentStatus, refreshStatus } from './status-card.ts'

const OUTCOMES: Record<string, string> = { pending: 'being carried out', done: 'done', incomplete: 'not everything could be done', no_session: 'no broker session' }

/** The last use of the kill switch, as the connector recorded it. */
async function showLastKill(): Promise<void> {
  const { killSwitches } = await api('GET /api/kill-switch')
  const last = killSwitches[0]
  byId('kill-last').textContent = last ? `Kill switch last used ${formatTime(last.requestedAt)} (${OUTCOMES[last.outcome] ?? last.outcome}): ${last.detail ?? ''}` : ''
}

async function kill(): Promise<void> {
  if (!(await ask('kill-dialog', 'kill-confirm', 'kill-cancel'))) return
  const message = byId('switch-message')
  const button = byId<HTMLButtonElement>('kill-switch')
  button.disabled = true
  say(message, 'Flattening and cancelling at the broker…')
  try {
    const { killSwitch } = await api('POST /api/kill-switch')
    const head = killSwitch.outcome === 'done' ? 'Kill switch done' : 'Kill switch: not everything could be done'
    say(message, `${head}: ${killSwitch.detail}. Automatic order placement is off.`, killSwitch.outcome === 'done' ? 'success' : 'error')
    liveTradingChanged({ enabled: currentStatus()?.liveTradingEnabled ?? false, autoPlaceOrders: false })
  } catch (error) {
    say(message, `The kill switch failed: ${reasonOf(error)}. Check your positions at the broker.`, 'error')
  } finally {
    button.disabled = false
    await Promise.all([refreshStatus().catch(() => undefined), showLastKill().catch(() => undefined)])
  }
}

export function wireKillSwitch(): void {
  void showLastKill().catch(() => undefined)
  byId('kill-switch').addEventListener('click', () => void kill())
}
