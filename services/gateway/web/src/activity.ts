// The trader's activity, live: alert records with their outcome, trades with pnl, today's PnL, totals and
// win rate, and the room-left chart. Everything is read through /api; the live socket only says "refetch".
import { api } from './api.ts'
import type { ResponseOf } from './api-routes.ts'
import { byId } from './dom.ts'
import { openLive, type LiveState, type Notice } from './live.ts'
import { renderSetup } from './setup.ts'
import { renderRoomLeft } from './room-left.ts'
import { totalsOf, type ClosedTrade } from './totals.ts'
import { tradingDayOf } from './trading-day.ts'
import type { PageRiskConfig } from './room-left.ts'
import { outcomeText, tradeOutcomeText } from './outcomes.ts'
import { rowOf, signOf, type Column } from './card-table.ts'
import { refreshExits } from './alert-exits.ts'
import { timeElement } from './exchange-time.ts'
import { dollars, priceOnTick } from './tick-price.ts'
import { chosenAccount, drawAccountFilter, onAccountChosen } from './activity-account.ts'

type AlertRecord = ResponseOf<'GET /api/alerts'>['alerts'][number]
type Trade = ResponseOf<'GET /api/trades'>['trades'][number]
type TradeCost = NonNullable<ResponseOf<'GET /api/broker/orders'>['session']>['tradeCommissions'][number]

const PAGE = 20

const money = dollars

const ALERT_COLUMNS: readonly Column<AlertRecord>[] = [
  { label: 'Received', value: (record) => timeElement(record.receivedAt) },
  { label: 'Symbol', value: (record) => record.symbol ?? '–' },
  { label: 'Action', value: (record) => record.action ?? '–', className: 'nowrap' },
  { label: 'Outcome', value: outcomeText, className: 'outcome' },
]

function alertRow(record: AlertRecord): HTMLElement {
  return rowOf(ALERT_COLUMNS, record, (row) => {
    row.dataset.id = String(record.id)
    row.dataset.status = record.status
    const outcome = row.querySelector<HTMLElement>('td.outcome')
    if (outcome) outcome.dataset.status = record.status
  })
}

/** An open trade at the broker can be closed from its row (close-trade.ts asks and sends it). */
function closeButton(trade: Trade): string | Node {
  if (trade.status !== 'open' || trade.contract === null || trade.exitRequestedAt) return ''
  const button = document.createElement('button')
  button.type = 'button'
  button.className = 'button small danger close-trade nowrap'
  button.textContent = 'Close'
  button.setAttribute('aria-label', `Close the ${trade.side} ${trade.contract} trade`)
  button.addEventListener('click', () => document.dispatchEvent(new CustomEvent('signals:close-trade', { detail: trade })))
  return button
}

/** Entry and exit on the contract's tick (`21000.00 → 21050.00` for MNQ). */
function prices(trade: Trade): string {
  const contract = trade.contract ?? trade.symbol
  const entry = priceOnTick(trade.entryPrice, contract)
  return trade.exitPrice ? `${entry} → ${priceOnTick(trade.exitPrice, contract)}` : entry
}

/**
 * Each trade's commission and net pnl as the broker's fills of the day tell them (the Positions page's
 * figures, docs/decisions/web.md "Commissions"); none without a broker session. Read with each page of trades.
 */
let costs = new Map<string, TradeCost>()
async function readCosts(): Promise<void> {
  try {
    const view = await api('GET /api/broker/orders', { query: { limit: '1' } })
    costs = new Map((view.session?.tradeCommissions ?? []).map((cost) => [cost.tradeId, cost]))
  } catch {
    // The broker's figures are extra: the trades show without them.
    costs = new Map()
  }
}

/** Net of the broker's commissions, when known: '–' otherwise (an earlier day's fills, or no session). */
function netPnl(trade: Trade): string {
  if (trade.status === 'open') return 'open'
  const net = costs.get(trade.id)?.netPnl
  return net === null || net === undefined ? '–' : money(net)
}

const TRADE_COLUMNS: readonly Column<Trade>[] = [
  { label: 'Opened', value: (trade) => timeElement(trade.openedAt) },
  { label: 'Contract', value: (trade) => trade.contract ?? trade.symbol },
  // "SHORT 2" stays whole on a phone.
  { label: 'Side', value: (trade) => `${trade.side} ${Number(trade.quantity)}`, className: 'nowrap' },
  { label: 'Entry → exit', value: prices },
  { label: 'Result', value: tradeOutcomeText, className: 'outcome' },
  { label: 'PnL before commissions', value: (trade) => (trade.status === 'open' ? 'open' : money(trade.pnl)), className: 'pnl', sign: (trade) => (trade.status === 'open' ? undefined : signOf(trade.pnl)) },
  { label: 'Net PnL', value: netPnl, className: 'net-pnl', sign: (trade) => (trade.status === 'open' ? undefined : signOf(costs.get(trade.id)?.netPnl)) },
  { label: 'Close', value: closeButton },
]

function tradeRow(trade: Trade): HTMLElement {
  return rowOf(TRADE_COLUMNS, trade, (row) => {
    row.dataset.id = String(trade.id)
    row.dataset.status = trade.status
    if (trade.exitRequestedAt && trade.status === 'open') row.dataset.exit = 'pending'
  })
}

/** A list route's page as pagedList reads it: the items under `key`, and the cursor to the older ones. */
const pageOf = <Body extends { nextCursor: string | null }, Key extends keyof Body>(body: Body, key: Key) => ({ items: body[key], nextCursor: body.nextCursor })

/** One paged list (newest first, `before` cursor): the first page again on a notice, older on demand. */
function pagedList<Item>(options: {
  fetchPage: (query: { limit: string; before?: string }) => Promise<{ items: Item[]; nextCursor: string | null }>
  body: string
  more: string
  empty: string
  row: (item: Item) => HTMLElement
}) {
  const { fetchPage, body, more, empty, row } = options
  let cursor: string | null = null
  const render = (items: Item[], append: boolean) => {
    if (!append) byId(body).replaceChildren()
    byId(body).append(...items.map(row))
    byId(empty).hidden = byId(body).childElementCount > 0
    byId(more).hidden = cursor === null
  }
  const load = async (append: boolean) => {
    const page = await fetchPage(append && cursor ? { limit: String(PAGE), before: cursor } : { limit: String(PAGE) })
    cursor = page.nextCursor
    render(page.items, append)
  }
  byId(more).addEventListener('click', () => void load(true).catch(showError))
  return { reload: () => load(false) }
}

/** Every closed trade of the chosen account (for totals and the chart), oldest pages last. */
async function allClosedTrades(accountId: string | undefined): Promise<ClosedTrade[]> {
  const trades: Trade[] = []
  let before: string | null = null
  for (let page = 0; page < 50; page += 1) {
    const query = { limit: '100', status: 'closed' as const, accountId, ...(before ? { before } : {}) }
    const body: ResponseOf<'GET /api/trades'> = await api('GET /api/trades', { query })
    trades.push(...body.trades)
    before = body.nextCursor
    if (before === null) break
  }
  // A closed trade has its close time and pnl; the schema allows null for the open ones.
  return trades.filter((trade): trade is Trade & ClosedTrade => trade.closedAt !== null && trade.pnl !== null)
}

let riskConfig: PageRiskConfig | null = null

/** The chosen account's risk rules; every account's view is drawn against the primary's (the spec's route). */
const readRiskConfig = (accountId: string | undefined) =>
  accountId === undefined ? api('GET /api/risk-engine/config') : api('GET /api/accounts/:id/risk-engine/config', { params: { id: accountId } })

async function refreshTotals() {
  const accountId = chosenAccount()
  const [closed, config] = await Promise.all([allClosedTrades(accountId), riskConfig ? Promise.resolve({ config: riskConfig }) : readRiskConfig(accountId)])
  riskConfig = config.config
  // One "today" for the totals and the chart: the trading day the risk engine enforces the daily limit on.
  const today = tradingDayOf(new Date())
  const totals = totalsOf(closed, today)
  byId('total-today').textContent = money(totals.today)
  byId('total-pnl').textContent = money(totals.total)
  byId('total-trades').textContent = String(totals.count)
  byId('total-win-rate').textContent = totals.winRate === null ? '–' : `${Math.round(totals.winRate * 100)}%`
  renderRoomLeft(closed, riskConfig, today)
}

function showError(error: Error): void {
  const box = byId('activity-error')
  box.textContent = `Activity could not be loaded: ${error.message}.`
  box.hidden = false
}

const alerts = pagedList({ fetchPage: async (query) => pageOf(await api('GET /api/alerts', { query: { ...query, accountId: chosenAccount() } }), 'alerts'), body: 'alerts-body', more: 'alerts-more', empty: 'alerts-empty', row: alertRow })
const trades = pagedList({
  fetchPage: async (query) => pageOf((await Promise.all([api('GET /api/trades', { query: { ...query, accountId: chosenAccount() } }), readCosts()]))[0], 'trades'),
  body: 'trades-body',
  more: 'trades-more',
  empty: 'trades-empty',
  row: tradeRow,
})

/** Another account chosen (or the chosen one removed): its records, trades, totals and rules. */
function showChosenAccount(): void {
  riskConfig = null
  void refreshAll().catch(showError)
}

async function refreshAll() {
  await Promise.all([alerts.reload(), trades.reload(), refreshTotals(), refreshExits()])
  byId('activity-error').hidden = true
}

const LIVE_TEXT: Record<LiveState, string> = { connected: 'Live: updates appear as they happen.', reconnecting: 'Reconnecting… the page refreshes once back.', closed: 'Live updates stopped.' }

function onNotice(notice: Notice): void {
  if (notice.kind === 'status') {
    document.dispatchEvent(new CustomEvent('signals:status-changed'))
    // An account added, renamed or removed elsewhere is announced as a status notice too.
    void drawAccountFilter().then((changed) => changed && showChosenAccount())
  }
  if (notice.kind === 'alert') void alerts.reload().catch(showError)
  // An exit makes no record: what it closed arrives as a trade notice (a refused one brings none).
  if (notice.kind === 'alert' || notice.kind === 'trade') void refreshExits().catch(showError)
  if (notice.kind === 'trade') {
    void trades.reload().catch(showError)
    void refreshTotals().catch(showError)
    // An open or closed trade changes the live-trading status (open trades count) too.
    document.dispatchEvent(new CustomEvent('signals:status-changed'))
  }
}

async function start() {
  const me = await api('GET /auth/me')
  renderSetup(me.user)
  let first = true
  openLive({
    onNotice,
    onState(state: LiveState) {
      byId('live-state').textContent = LIVE_TEXT[state]
      byId('live-state').dataset.state = state
      // After a reconnect, whatever was missed is fetched again.
      if (state === 'connected' && !first) {
        void refreshAll().catch(showError)
        document.dispatchEvent(new CustomEvent('signals:status-changed'))
      }
      if (state === 'connected') first = false
    },
  })
  await drawAccountFilter()
  onAccountChosen(showChosenAccount)
  await refreshAll()
  byId('settings-form').addEventListener('signals:saved', () => {
    riskConfig = null
    void refreshTotals().catch(showError)
  })
}

start().catch(showError)
