// Stop in one click (issue 25, items 2 and 4): the live and auto-place switches act at once from the status
// card, the kill switch (with a confirmation), closing one trade from its row, and the broker login test.
// Values from the server reach the page through textContent only.

const $ = (id) => document.getElementById(id)

/** Asks with a <dialog>; resolves true when `confirm` is pressed. */
function ask(dialogId, confirmId, cancelId) {
  const dialog = $(dialogId)
  return new Promise((resolve) => {
    const done = (answer) => {
      $(confirmId).removeEventListener('click', yes)
      $(cancelId).removeEventListener('click', no)
      dialog.removeEventListener('cancel', no)
      dialog.close()
      resolve(answer)
    }
    const yes = () => done(true)
    const no = () => done(false)
    $(confirmId).addEventListener('click', yes)
    $(cancelId).addEventListener('click', no)
    dialog.addEventListener('cancel', no)
    dialog.showModal()
  })
}

function say(element, text, kind = 'info') {
  element.textContent = text
  element.dataset.kind = kind
}

/**
 * Wires the status card. `api(method, path, body)` is the page's JSON client; `current()` the last status
 * read; `refresh()` reads it again; `settingsChanged(liveTrading)` keeps the settings form in step;
 * `formatTime` writes a time as the page does.
 */
export function setupCockpit({ api, current, refresh, settingsChanged, formatTime }) {
  const lastKill = () => showLastKill(api, formatTime).catch(() => undefined)
  void lastKill()
  const message = $('switch-message')
  const setLive = async (liveTrading, said) => {
    $('switch-live').disabled = $('switch-auto-place').disabled = true
    try {
      await api('POST', '/api/trading-settings', { settingKey: 'live_trading', settingValue: liveTrading })
      settingsChanged(liveTrading)
      say(message, said, 'success')
    } catch (error) {
      say(message, `Not switched: ${error.message}`, 'error')
    } finally {
      // Enabled again only once the status is read back, so the read cannot undo a click made meanwhile.
      await refresh().catch(() => undefined)
      $('switch-live').disabled = $('switch-auto-place').disabled = false
      if (current()) renderSwitches(current())
    }
  }

  $('switch-live').addEventListener('change', async () => {
    const status = current()
    const enabled = $('switch-live').checked
    if (!enabled && status && status.liveTradesCount > 0) {
      $('live-off-text').textContent =
        `You have ${status.liveTradesCount} open trade(s). Switching live trading off closes the broker connection: their positions stay at the broker with their stop and target, and the platform no longer follows them. Use the kill switch to flatten them first.`
      if (!(await ask('live-off-dialog', 'live-off-confirm', 'live-off-cancel'))) {
        $('switch-live').checked = true
        return
      }
    }
    await setLive({ enabled, autoPlaceOrders: status?.autoPlaceOrdersEnabled ?? false }, enabled ? 'Live trading is on.' : 'Live trading is off.')
  })

  $('switch-auto-place').addEventListener('change', async () => {
    const status = current()
    const autoPlaceOrders = $('switch-auto-place').checked
    await setLive({ enabled: status?.liveTradingEnabled ?? false, autoPlaceOrders }, autoPlaceOrders ? 'Orders are placed automatically.' : 'Automatic order placement is off.')
  })

  $('kill-switch').addEventListener('click', async () => {
    if (!(await ask('kill-dialog', 'kill-confirm', 'kill-cancel'))) return
    $('kill-switch').disabled = true
    say(message, 'Flattening and cancelling at the broker…')
    try {
      const { killSwitch } = await api('POST', '/api/kill-switch')
      const head = killSwitch.outcome === 'done' ? 'Kill switch done' : 'Kill switch: not everything could be done'
      say(message, `${head}: ${killSwitch.detail}. Automatic order placement is off.`, killSwitch.outcome === 'done' ? 'success' : 'error')
      settingsChanged({ enabled: current()?.liveTradingEnabled ?? false, autoPlaceOrders: false })
    } catch (error) {
      say(message, `The kill switch failed: ${error.message}. Check your positions at the broker.`, 'error')
    } finally {
      $('kill-switch').disabled = false
      await Promise.all([refresh().catch(() => undefined), lastKill()])
    }
  })

  document.addEventListener('signals:close-trade', async (event) => {
    const trade = event.detail
    $('close-trade-text').textContent =
      `The broker holds one position per contract: your whole ${trade.side} ${trade.contract} position is flattened, and the trade closes at the fill.`
    if (!(await ask('close-trade-dialog', 'close-trade-confirm', 'close-trade-cancel'))) return
    try {
      const closed = await api('POST', `/api/trades/${encodeURIComponent(trade.id)}/close`)
      say(message, closed.exit === 'sent' ? `Trade closing: ${closed.detail}` : `The exit waits: ${closed.detail}`, closed.exit === 'sent' ? 'success' : 'error')
    } catch (error) {
      say(message, `Not closed: ${error.message}`, 'error')
    }
  })

  $('test-credentials').addEventListener('click', async () => {
    const out = $('credentials-message')
    $('test-credentials').disabled = true
    say(out, 'Trying the login at the broker…')
    try {
      const { test } = await api('POST', '/api/broker-credentials/test')
      say(out, test.detail, test.ok ? 'success' : 'error')
    } catch (error) {
      say(out, `The login could not be tried: ${error.message}`, 'error')
    } finally {
      $('test-credentials').disabled = false
    }
  })
}

const OUTCOMES = { pending: 'being carried out', done: 'done', incomplete: 'not everything could be done', no_session: 'no broker session' }

/** The last use of the kill switch, as the connector recorded it (GET /api/kill-switch). */
async function showLastKill(api, formatTime) {
  const { killSwitches } = await api('GET', '/api/kill-switch')
  const last = killSwitches[0]
  $('kill-last').textContent = last ? `Kill switch last used ${formatTime(last.requestedAt)} (${OUTCOMES[last.outcome] ?? last.outcome}): ${last.detail ?? ''}` : ''
}

/** The status card's switches follow the status read. */
export function renderSwitches(status) {
  // A switch being saved shows what the trader chose until its save is read back.
  if ($('switch-live').disabled) return
  $('switch-live').checked = status.liveTradingEnabled
  $('switch-auto-place').checked = status.autoPlaceOrdersEnabled
}
