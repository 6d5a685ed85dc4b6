// The trader's activity, live: alert records with their outcome, trades with pnl, today's PnL, totals and
// win rate, and the room-left chart. Everything is read through /api; the live socket only says "refetch".
import { openLive } from './live.ts'
import { renderSetup } from './setup.ts'
import { renderRoomLeft } from './room-left.ts'
import { totalsOf } from './totals.ts'
import { tradingDayOf } from './trading-day.ts'
import { outcomeText, tradeOutcomeText } from './outcomes.ts'

const $ = (id) => document.getElementById(id)
const PAGE = 20

async function getJson(path) {
  const response = await fetch(path, { credentials: 'same-origin', headers: { accept: 'application/json' } })
  const body = await response.json().catch(() => null)
  if (!response.ok || body === null || body.success === false) throw new Error(body?.error ?? `the server answered ${response.status}`)
  return body
}

const money = (text) => {
  if (text === null || text === undefined) return '–'
  const value = Number(text)
  return (value < 0 ? '−' : '') + '$' + Math.abs(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
}
const when = (iso) => (iso ? new Date(iso).toLocaleString() : '–')
const cell = (text, className) => {
  const td = document.createElement('td')
  td.textContent = text
  if (className) td.className = className
  return td
}

function alertRow(record) {
  const row = document.createElement('tr')
  row.dataset.id = record.id
  row.dataset.status = record.status
  const outcome = cell(outcomeText(record), 'outcome')
  outcome.dataset.status = record.status
  row.append(cell(when(record.receivedAt)), cell(record.symbol ?? '–'), cell(record.action ?? '–'), outcome)
  return row
}

/** An open trade at the broker can be closed from its row (cockpit.js asks and sends it). */
function closeCell(trade) {
  const td = document.createElement('td')
  if (trade.status !== 'open' || trade.contract === null || trade.exitRequestedAt) return td
  const button = document.createElement('button')
  button.type = 'button'
  button.className = 'button small danger close-trade'
  button.textContent = 'Close'
  button.setAttribute('aria-label', `Close the ${trade.side} ${trade.contract} trade`)
  button.addEventListener('click', () => document.dispatchEvent(new CustomEvent('signals:close-trade', { detail: trade })))
  td.append(button)
  return td
}

function tradeRow(trade) {
  const row = document.createElement('tr')
  row.dataset.id = trade.id
  row.dataset.status = trade.status
  if (trade.exitRequestedAt && trade.status === 'open') row.dataset.exit = 'pending'
  const pnl = cell(trade.status === 'open' ? 'open' : money(trade.pnl), 'pnl')
  if (trade.pnl !== null) pnl.dataset.sign = Number(trade.pnl) < 0 ? 'negative' : 'positive'
  row.append(
    cell(when(trade.openedAt)),
    cell(trade.contract ?? trade.symbol),
    cell(`${trade.side} ${Number(trade.quantity)}`),
    cell(`${trade.entryPrice}${trade.exitPrice ? ` → ${trade.exitPrice}` : ''}`),
    cell(tradeOutcomeText(trade), 'outcome'),
    pnl,
    closeCell(trade),
  )
  return row
}

/** One paged list (newest first, `before` cursor): the first page again on a notice, older on demand. */
function pagedList({ path, key, body, more, empty, row }) {
  let cursor = null
  const render = (items, append) => {
    if (!append) $(body).replaceChildren()
    $(body).append(...items.map(row))
    $(empty).hidden = $(body).childElementCount > 0
    $(more).hidden = cursor === null
  }
  const load = async (append) => {
    const query = new URLSearchParams({ limit: String(PAGE) })
    if (append && cursor) query.set('before', cursor)
    const page = await getJson(`${path}?${query}`)
    cursor = page.nextCursor
    render(page[key], append)
  }
  $(more).addEventListener('click', () => void load(true).catch(showError))
  return { reload: () => load(false) }
}

/** Every closed trade (for totals and the chart), oldest pages last. */
async function allClosedTrades() {
  const trades = []
  let before = null
  for (let page = 0; page < 50; page += 1) {
    const query = new URLSearchParams({ limit: '100', status: 'closed' })
    if (before) query.set('before', before)
    const body = await getJson(`/api/trades?${query}`)
    trades.push(...body.trades)
    before = body.nextCursor
    if (before === null) break
  }
  return trades
}

let riskConfig = null

async function refreshTotals() {
  const [closed, config] = await Promise.all([allClosedTrades(), riskConfig ? Promise.resolve({ config: riskConfig }) : getJson('/api/risk-engine/config')])
  riskConfig = config.config
  // One "today" for the totals and the chart: the trading day the risk engine enforces the daily limit on.
  const today = tradingDayOf(new Date())
  const totals = totalsOf(closed, today)
  $('total-today').textContent = money(totals.today)
  $('total-pnl').textContent = money(totals.total)
  $('total-trades').textContent = String(totals.count)
  $('total-win-rate').textContent = totals.winRate === null ? '–' : `${Math.round(totals.winRate * 100)}%`
  renderRoomLeft(closed, riskConfig, today)
}

function showError(error) {
  const box = $('activity-error')
  box.textContent = `Activity could not be loaded: ${error.message}.`
  box.hidden = false
}

const alerts = pagedList({ path: '/api/alerts', key: 'alerts', body: 'alerts-body', more: 'alerts-more', empty: 'alerts-empty', row: alertRow })
const trades = pagedList({ path: '/api/trades', key: 'trades', body: 'trades-body', more: 'trades-more', empty: 'trades-empty', row: tradeRow })

async function refreshAll() {
  await Promise.all([alerts.reload(), trades.reload(), refreshTotals()])
  $('activity-error').hidden = true
}

const LIVE_TEXT = { connected: 'Live: updates appear as they happen.', reconnecting: 'Reconnecting… the page refreshes once back.', closed: 'Live updates stopped.' }

function onNotice(notice) {
  if (notice.kind === 'status') document.dispatchEvent(new CustomEvent('signals:status-changed'))
  if (notice.kind === 'alert') void alerts.reload().catch(showError)
  if (notice.kind === 'trade') {
    void trades.reload().catch(showError)
    void refreshTotals().catch(showError)
    // An open or closed trade changes the live-trading status (open trades count) too.
    document.dispatchEvent(new CustomEvent('signals:status-changed'))
  }
}

async function start() {
  const me = await getJson('/auth/me')
  renderSetup(me.user)
  let first = true
  openLive({
    onNotice,
    onState(state) {
      $('live-state').textContent = LIVE_TEXT[state]
      $('live-state').dataset.state = state
      // After a reconnect, whatever was missed is fetched again.
      if (state === 'connected' && !first) {
        void refreshAll().catch(showError)
        document.dispatchEvent(new CustomEvent('signals:status-changed'))
      }
      if (state === 'connected') first = false
    },
  })
  await refreshAll()
  $('settings-form').addEventListener('signals:saved', () => {
    riskConfig = null
    void refreshTotals().catch(showError)
  })
}

start().catch(showError)
