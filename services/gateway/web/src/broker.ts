// The Positions page (issue 25, item 3): what the broker session says — positions with unrealized pnl,
// working orders, the broker's balance beside ours, the order history with fills — and every step of an
// alert with its time. When the session is not open the page says so and shows nothing as if it were known.
import { api } from './api.ts'
import type { ResponseOf } from './api-routes.ts'
import { fillRows, signOf, type Column } from './card-table.ts'
import { byId } from './dom.ts'
import { bothZones, timeElement } from './exchange-time.ts'
import { openLive } from './live.ts'
import { outcomeText } from './outcomes.ts'
import { dollars, priceOnTick } from './tick-price.ts'
import { commissionsSentence, placedByText, sessionStateText, stepText, stopsText, tradeCommissionText } from './broker-view.ts'

type Positions = ResponseOf<'GET /api/broker/positions'>
type Orders = ResponseOf<'GET /api/broker/orders'>
type Position = NonNullable<Positions['session']>['positions'][number]
type Order = NonNullable<Positions['session']>['workingOrders'][number]
type Fill = NonNullable<Orders['session']>['fills'][number]
type TradeCost = NonNullable<Orders['session']>['tradeCommissions'][number]
type AlertRecord = ResponseOf<'GET /api/alerts'>['alerts'][number]

function showError(error: Error): void {
  const box = byId('page-error')
  box.textContent = `The page could not be brought up to date: ${error.message}.`
  box.hidden = false
}

/** A "Steps" button; `what` names the alert (`the LONG MNQ1! alert`) for screen readers and the heading. */
const stepsButton = (recordId: string | null, what: string) => {
  if (recordId === null) return '–'
  const button = document.createElement('button')
  button.type = 'button'
  button.className = 'button small'
  button.textContent = 'Steps'
  button.setAttribute('aria-label', `Steps of ${what}`)
  button.addEventListener('click', () => void showSteps(recordId, what).catch(showError))
  return button
}

const POSITION_COLUMNS: Column<Position>[] = [
  { label: 'Contract', value: (p) => p.contract ?? `contract ${p.contractId}` },
  { label: 'Side', value: (p) => p.side, className: 'nowrap' },
  { label: 'Qty', value: (p) => String(p.quantity) },
  { label: 'Average', value: (p) => priceOnTick(p.averagePrice, p.contract) },
  { label: 'Market', value: (p) => priceOnTick(p.marketPrice, p.contract) },
  { label: 'Unrealized PnL', value: (p) => (p.unrealizedPnl === null ? `not known: ${p.unpricedReason ?? 'no price'}` : dollars(p.unrealizedPnl)), className: 'pnl', sign: (p) => signOf(p.unrealizedPnl) },
  { label: 'Stops at the broker', value: stopsText },
  { label: 'Placed by', value: placedByText },
]

const orderPrice = (o: Order) => {
  const price = o.price === null ? null : priceOnTick(o.price, o.contract)
  const stop = o.stopPrice === null ? null : `stop ${priceOnTick(o.stopPrice, o.contract)}`
  return [price, stop].filter((part) => part !== null).join(', ') || 'market'
}
const orderStatus = (o: Order) => (o.text ? `${o.status}: ${o.text}` : o.status)

const WORKING_COLUMNS: Column<Order>[] = [
  { label: 'Contract', value: (o) => o.contract ?? '–' },
  { label: 'Side', value: (o) => o.side, className: 'nowrap' },
  { label: 'Type', value: (o) => o.type ?? '–' },
  { label: 'Qty', value: (o) => (o.quantity === null ? '–' : String(o.quantity)) },
  { label: 'Price', value: orderPrice },
  { label: 'Status', value: orderStatus },
  { label: 'Alert', value: (o) => (o.ours ? stepsButton(o.recordId, `the alert that placed order ${o.id}`) : 'yours, outside Signals') },
]

const ORDER_COLUMNS: Column<Order>[] = [
  { label: 'Order', value: (o) => o.id },
  ...WORKING_COLUMNS.slice(0, 5),
  { label: 'Status', value: orderStatus },
]

const FILL_COLUMNS: Column<Fill>[] = [
  { label: 'Time', value: (f) => timeElement(f.at) },
  { label: 'Contract', value: (f) => f.contract ?? '–' },
  { label: 'Side', value: (f) => f.side, className: 'nowrap' },
  { label: 'Qty', value: (f) => String(f.quantity) },
  { label: 'Price', value: (f) => priceOnTick(f.price, f.contract) },
  { label: 'Commission', value: (f) => (f.commission === null ? 'not reported' : dollars(f.commission)) },
  { label: 'Order', value: (f) => f.orderId },
]

const TRADE_COST_COLUMNS: Column<TradeCost>[] = [
  { label: 'Trade', value: (c) => c.tradeId },
  { label: 'Contract', value: (c) => c.contract ?? '–' },
  { label: 'Side', value: (c) => `${c.side} ${c.quantity}`, className: 'nowrap' },
  { label: 'PnL before commissions', value: (c) => (c.status === 'open' ? 'open' : dollars(c.pnl)), className: 'pnl', sign: (c) => signOf(c.pnl) },
  { label: 'Commission', value: (c) => tradeCommissionText(c, dollars) },
  { label: 'Net PnL', value: (c) => (c.status === 'open' ? 'open' : c.netPnl === null ? 'not known' : dollars(c.netPnl)), className: 'pnl', sign: (c) => signOf(c.netPnl) },
]

const RECENT_COLUMNS: Column<AlertRecord>[] = [
  { label: 'Received', value: (a) => timeElement(a.receivedAt) },
  { label: 'Symbol', value: (a) => a.symbol ?? '–' },
  { label: 'Action', value: (a) => a.action ?? '–', className: 'nowrap' },
  { label: 'Outcome', value: (a) => outcomeText(a), className: 'outcome' },
  { label: 'Detail', value: (a) => stepsButton(a.id, `the ${a.action ?? ''} ${a.symbol ?? ''} alert received ${bothZones(a.receivedAt).local}`.replace(/ +/g, ' ')) },
]

/** Fills a table, or says why it is empty: nothing there, or not known without a session. */
function show<T>(name: string, columns: Column<T>[], items: readonly T[] | null, none: string): void {
  const count = fillRows(byId(`${name}-body`), columns, items ?? [])
  const empty = byId(`${name}-empty`)
  empty.hidden = count > 0
  empty.textContent = items === null ? 'Not known: the broker session is not open.' : none
}

function setFact(id: string, text: string, sign?: 'positive' | 'negative'): void {
  const element = byId(id)
  element.textContent = text
  if (sign) element.dataset.sign = sign
  else delete element.dataset.sign
}

async function refreshPositions(): Promise<void> {
  const view = await api('GET /api/broker/positions')
  const session = view.session
  const state = byId('session-state')
  state.textContent = sessionStateText(view.state, view.detail, session?.account ?? null)
  state.dataset.state = view.state
  setFact('fact-account', session?.account ?? '–')
  byId('fact-heard').replaceChildren(timeElement(session?.heardAt))
  setFact('fact-broker-balance', session ? dollars(session.broker.brokerCash) : 'not known')
  setFact('fact-our-balance', dollars(view.computed.balance))
  setFact('fact-broker-today', session ? dollars(session.broker.brokerRealizedPnl) : 'not known', signOf(session?.broker.brokerRealizedPnl))
  setFact('fact-our-today', dollars(view.computed.todayRealizedPnl), signOf(view.computed.todayRealizedPnl))
  show('positions', POSITION_COLUMNS, session?.positions ?? null, 'No open position.')
  show('working', WORKING_COLUMNS, session?.workingOrders ?? null, 'No working order.')
}

async function refreshOrders(): Promise<void> {
  const view = await api('GET /api/broker/orders', { query: { limit: '50' } })
  const session = view.session
  show('orders', ORDER_COLUMNS, session?.orders ?? null, 'No order.')
  show('fills', FILL_COLUMNS, session?.fills ?? null, 'No fill this session.')
  show('trade-costs', TRADE_COST_COLUMNS, session?.tradeCommissions ?? null, 'No trade of yours has a fill today.')
  byId('commissions').textContent = commissionsSentence(session, dollars)
}

async function refreshRecent(): Promise<void> {
  const { alerts } = await api('GET /api/alerts', { query: { limit: '20' } })
  show('recent', RECENT_COLUMNS, alerts, 'No alerts yet.')
}

async function showSteps(recordId: string, what: string): Promise<void> {
  const detail = await api('GET /api/alerts/:id/steps', { params: { id: recordId } })
  byId('steps-heading').textContent = `Steps of ${what}: ${detail.status.replace(/_/g, ' ')} now`
  byId('steps-list').replaceChildren(
    ...detail.steps.map((step) => {
      const item = document.createElement('li')
      item.dataset.step = step.step
      const name = document.createElement('strong')
      name.textContent = stepText(step.step)
      const words = document.createElement('span')
      words.textContent = step.detail
      item.append(name, ' ', timeElement(step.at), document.createElement('br'), words)
      return item
    }),
  )
  byId('steps').hidden = false
  byId('steps-heading').focus()
}

let pending: Promise<void> | null = null
/** Everything again; calls while one runs share it. */
function refreshAll(): Promise<void> {
  pending ??= Promise.all([refreshPositions(), refreshOrders(), refreshRecent()])
    .then(() => {
      byId('page-error').hidden = true
    })
    .finally(() => {
      pending = null
    })
  return pending
}

function start(): void {
  byId('refresh').addEventListener('click', () => void refreshAll().catch(showError))
  let first = true
  openLive({
    // A fill, a close, a status change: what the broker says has likely changed too.
    onNotice: () => void refreshAll().catch(showError),
    onState: (state) => {
      if (state === 'connected' && !first) void refreshAll().catch(showError)
      if (state === 'connected') first = false
    },
  })
  void refreshAll().catch(showError)
}

start()
