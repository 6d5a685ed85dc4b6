// "Room left": the balance over closed trades against the trailing-drawdown floor and today's daily-loss
// line (the risk engine's rule: floor = min(peak − amount, stop-trailing balance); the peak is taken per
// closed trade intraday, per trading day in end-of-day mode; open profit is not drawn). Drawn with uPlot,
// served by the gateway from the installed package; the same figures are given in words beside it.
// Days are trading days (trading-day.js), as the engine counts them.
import { pnlOfDay } from './totals.js'
import { tradingDayOf } from './trading-day.js'

const $ = (id) => document.getElementById(id)
const money = (value) => (value < 0 ? '−' : '') + '$' + Math.abs(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })

/** The balance after each closed trade (oldest first), with the floor as the configured mode moves it. */
export function balancePath(closedTrades, config) {
  const start = Number(config.account.startingBalance)
  const { amount, mode, stopTrailingAtBalance } = config.trailingDrawdown
  const cap = stopTrailingAtBalance === null ? Infinity : Number(stopTrailingAtBalance)
  const floorOf = (peak) => Math.min(peak - Number(amount), cap)
  const points = [{ balance: start, floor: floorOf(start), day: null }]
  let balance = start
  let peak = start
  let dayPeak = start
  let day = null
  for (const trade of [...closedTrades].sort((a, b) => a.closedAt.localeCompare(b.closedAt))) {
    const tradeDay = tradingDayOf(trade.closedAt)
    // End of day: yesterday's closing balance becomes the peak candidate when a new day starts.
    if (mode === 'end_of_day' && day !== null && tradeDay !== day) peak = Math.max(peak, dayPeak)
    day = tradeDay
    balance += Number(trade.pnl)
    dayPeak = balance
    if (mode !== 'end_of_day') peak = Math.max(peak, balance)
    points.push({ balance, floor: floorOf(peak), day })
  }
  return points
}

/** The figures in words: balance, floor and room left, and today's daily-loss room. */
export function roomFigures(points, closedTrades, config, today) {
  const last = points.at(-1)
  const todayPnl = pnlOfDay(closedTrades, today)
  const daily = config.dailyLossLimit
  const dailyLine = daily.enabled ? last.balance - todayPnl - Number(daily.amount) : null
  return { balance: last.balance, floor: last.floor, room: last.balance - last.floor, todayPnl, dailyLine, dailyRoom: dailyLine === null ? null : last.balance - dailyLine }
}

function describe(figures) {
  const parts = [
    `Balance ${money(figures.balance)}.`,
    `Trailing-drawdown floor ${money(figures.floor)}: ${money(figures.room)} of room left.`,
  ]
  parts.push(
    figures.dailyLine === null
      ? 'No daily loss limit.'
      : `This trading day ${money(figures.todayPnl)}; the daily loss line is ${money(figures.dailyLine)}, ${money(figures.dailyRoom)} away.`,
  )
  return parts.join(' ')
}

let plot = null

// The chart follows its box's width (a phone turned, a window resized). Made with the chart, so the
// module's figures can be loaded where there is no page (the gateway's tests).
const followWidth = (box) =>
  new ResizeObserver(([entry]) => {
    const width = Math.max(280, Math.floor(entry.contentRect.width))
    if (plot !== null && plot.width !== width) plot.setSize({ width, height: 220 })
  }).observe(box)

/** `today` is the trading day (trading-day.js) the totals beside the chart use too. */
export function renderRoomLeft(closedTrades, config, today) {
  const points = balancePath(closedTrades, config)
  const figures = roomFigures(points, closedTrades, config, today)
  $('room-figures').textContent = describe(figures)
  $('room-left-summary').textContent = `${money(figures.room)} above the floor`
  const x = points.map((_point, index) => index)
  const data = [x, points.map((p) => p.balance), points.map((p) => p.floor), points.map(() => figures.dailyLine)]
  const box = $('room-chart')
  const width = Math.max(280, box.clientWidth || 600)
  const options = {
    width,
    height: 220,
    scales: { x: { time: false } },
    axes: [{ label: 'closed trades' }, { size: 70, values: (_u, ticks) => ticks.map((tick) => money(tick).replace('.00', '')) }],
    series: [
      { label: 'Trade' },
      { label: 'Balance', stroke: '#1a56db', width: 2 },
      { label: 'Drawdown floor', stroke: '#d92d20', width: 2, dash: [6, 4] },
      { label: 'Daily loss line', stroke: '#b26b00', width: 1.5, dash: [2, 3], show: figures.dailyLine !== null },
    ],
  }
  if (plot === null) {
    box.replaceChildren()
    plot = new window.uPlot(options, data, box)
    followWidth(box)
  } else {
    plot.setData(data)
  }
}
