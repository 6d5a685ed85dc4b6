// The settings panel: live trading and the one risk section, saved by the spec's client save sequence
// (exactly three calls, in order, each only after the previous one succeeded; all or nothing; then the
// status is refetched). A refusal is said in the trader's words and clears any earlier "Settings saved.".
import { api, reasonOf } from './api.ts'
import { byId, say } from './dom.ts'
import { fieldNamed, inTradersWords } from './risk-fields.ts'
import { loadedRiskConfig, markRiskField, readRiskForm, renderRiskForm, riskFormSaved } from './risk-form.ts'
import { strategyToSave, withLegacyCap, type RiskStrategy } from './risk-strategy.ts'
import { refreshStatus, renderStatus } from './status-card.ts'

type LiveTrading = { enabled: boolean; autoPlaceOrders: boolean }

/** What the settings service holds, as last loaded or saved: restored if a later save step fails. */
const stored: { strategy: RiskStrategy | null; liveTrading: LiveTrading | null } = { strategy: null, liveTrading: null }

export async function loadSettingsPanel(): Promise<void> {
  const [{ settings }, riskEngine, { status }] = await Promise.all([api('GET /api/trading-settings'), api('GET /api/risk-engine/config'), api('GET /api/live-trading-status')])
  stored.strategy = settings.risk_strategy.value
  stored.liveTrading = settings.live_trading.value
  byId<HTMLInputElement>('live-enabled').checked = stored.liveTrading.enabled
  byId<HTMLInputElement>('live-auto-place').checked = stored.liveTrading.autoPlaceOrders
  renderRiskForm(withLegacyCap(riskEngine.config, stored.strategy))
  // What a failed save restores is what the service holds, not the folded view.
  riskFormSaved(riskEngine.config)
  renderStatus(status)
  byId<HTMLButtonElement>('save-settings').disabled = false
}

/** The status-card switches saved a new live-trading value: the form shows it too, and a later save keeps it. */
export function liveTradingChanged(liveTrading: LiveTrading): void {
  stored.liveTrading = liveTrading
  byId<HTMLInputElement>('live-enabled').checked = liveTrading.enabled
  byId<HTMLInputElement>('live-auto-place').checked = liveTrading.autoPlaceOrders
}

/** Puts back what the earlier steps of a failed save overwrote, latest first; says how that went. */
async function restoreSaved(undoSteps: ReadonlyArray<() => Promise<unknown>>): Promise<string> {
  if (undoSteps.length === 0) return ''
  try {
    for (const step of [...undoSteps].reverse()) await step()
    return ' What was saved before is restored.'
  } catch (error) {
    return ` Restoring the earlier values failed too (${reasonOf(error)}): reload the page and check them.`
  }
}

async function saveSettings(event: Event): Promise<void> {
  event.preventDefault()
  const message = byId('settings-message')
  // A refused save never leaves an earlier success standing.
  say(message, '')
  markRiskField(undefined)
  if (!byId<HTMLFormElement>('settings-form').reportValidity()) return
  const before = loadedRiskConfig()
  const strategyBefore = stored.strategy
  if (before === null || strategyBefore === null) return
  const riskEngineConfig = readRiskForm()
  const mode = riskEngineConfig.riskMode.mode
  const strategy = strategyToSave(strategyBefore)
  const liveTrading = { enabled: byId<HTMLInputElement>('live-enabled').checked, autoPlaceOrders: byId<HTMLInputElement>('live-auto-place').checked }
  const steps: Array<[string, () => Promise<unknown>]> = [
    ['the risk settings were', () => api('POST /api/risk-engine/config', { body: riskEngineConfig })],
    ['the risk strategy was', () => api('POST /api/trading-settings', { body: { settingKey: 'risk_strategy', settingValue: strategy } })],
    ['the live-trading setting was', () => api('POST /api/trading-settings', { body: { settingKey: 'live_trading', settingValue: liveTrading } })],
  ]
  // What each step overwrote, to put back if a later step fails (all or nothing).
  const undo = [
    () => api('POST /api/risk-engine/config', { body: before }),
    () => api('POST /api/trading-settings', { body: { settingKey: 'risk_strategy', settingValue: strategyBefore } }),
  ]
  const button = byId<HTMLButtonElement>('save-settings')
  button.disabled = true
  say(message, 'Saving…')
  try {
    for (const [index, [name, call]] of steps.entries()) {
      try {
        await call()
      } catch (error) {
        const restored = await restoreSaved(undo.slice(0, index))
        const reason = reasonOf(error)
        if (index === 0) markRiskField(fieldNamed(reason))
        say(message, `Settings not saved: ${name} refused (${inTradersWords(reason, mode)}).${restored}`, 'error')
        return
      }
    }
    riskFormSaved(riskEngineConfig)
    stored.strategy = strategy
    stored.liveTrading = liveTrading
    say(message, 'Settings saved.', 'success')
    byId('settings-form').dispatchEvent(new CustomEvent('signals:saved'))
    await refreshStatus().catch((error: unknown) => say(message, `Settings saved, but the status could not be refreshed: ${reasonOf(error)}`, 'error'))
  } finally {
    button.disabled = false
  }
}

export function wireSettingsForm(): void {
  const form = byId<HTMLFormElement>('settings-form')
  form.addEventListener('submit', (event) => void saveSettings(event))
  // The browser refuses an out-of-bounds field before any submit event: that refusal, too, clears an earlier
  // "Settings saved." ('invalid' does not bubble, so it is caught on the way down).
  form.addEventListener('invalid', () => say(byId('settings-message'), ''), true)
}
