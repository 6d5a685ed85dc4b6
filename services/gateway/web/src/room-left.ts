// "Room left": the balance over closed trades against the trailing-drawdown floor and today's daily-loss
// line (the risk engine's rule: floor = min(peak − amount, stop-trailing balance); the peak is taken per
// closed trade intraday, per trading day in end-of-day mode; open profit is not drawn). Drawn with uPlot,
// served by the gateway from the installed package; the same figures are given in words beside it.
// Days are trading days (trading-day.ts), as the engine counts them; the floor is the engine's drawdownFloor
// (imported by path: the package's index also loads its TypeBox schemas, which the page does not need).
import type uPlot from 'uplot'
import type { RiskEngineConfig } from '../../../../packages/risk-engine/src/config.ts'
import { drawdownFloor } from '../../../../packages/risk-engine/src/drawdown.ts'
import { add, parseDecimal, toPlain } from '@signals/instruments'
import { byId } from './dom.ts'
import { dollars } from './tick-price.ts'
import { pnlOfDay, type ClosedTrade } from './totals.ts'
import { tradingDayOf } from './trading-day.ts'

declare global {
  interface Window {
    /** uPlot's script (served under /vendor/uplot/, loaded before the page's modules). */
    uPlot: typeof uPlot
  }
}

/** The parts of the risk configuration the chart reads. */
export interface PageRiskConfig {
  account: Pick<RiskEngineConfig['account'], 'startingBalance'>
  trailingDrawdown: RiskEngineConfig['trailingDrawdown']
  dailyLossLimit: Pick<RiskEngineConfig['dailyLossLimit'], 'enabled' | 'amount'>
}

export interface BalancePoint {
  balance: number
  floor: number
  day: string | null
}

export interface RoomFigures {
  balance: number
  floor: number
  room: number
  todayPnl: number
  dailyLine: number | null
  dailyRoom: number | null
}

const money = (value: number) => dollars(value)

/** The balance after each closed trade (oldest first), with the floor as the configured mode moves it. */
export function balancePath(closedTrades: readonly ClosedTrade[], config: PageRiskConfig): BalancePoint[] {
  const start = Number(config.account.startingBalance)
  const { mode } = config.trailingDrawdown
  // drawdownFloor reads only the trailing-drawdown area of the configuration.
  const floorOf = (peak: number) => Number(drawdownFloor(config as RiskEngineConfig, { peakBalance: peak.toFixed(2) }))
  const points: BalancePoint[] = [{ balance: start, floor: floorOf(start), day: null }]
  // Summed exactly from the stored decimals; a number only for comparing and drawing.
  let exact = parseDecimal(String(config.account.startingBalance))
  let balance = start
  let peak = start
  let dayPeak = start
  let day: string | null = null
  for (const trade of [...closedTrades].sort((a, b) => a.closedAt.localeCompare(b.closedAt))) {
    const tradeDay = tradingDayOf(trade.closedAt)
    // End of day: yesterday's closing balance becomes the peak candidate when a new day starts.
    if (mode === 'end_of_day' && day !== null && tradeDay !== day) peak = Math.max(peak, dayPeak)
    day = tradeDay
    exact = add(exact, parseDecimal(trade.pnl))
    balance = Number(toPlain(exact))
    dayPeak = balance
    if (mode !== 'end_of_day') peak = Math.max(peak, balance)
    points.push({ balance, floor: floorOf(peak), day })
  }
  return points
}

/** The figures in words: balance, floor and room left, and today's daily-loss room. */
export function roomFigures(points: readonly BalancePoint[], closedTrades: readonly ClosedTrade[], config: PageRiskConfig, today: string): RoomFigures {
  const last = points.at(-1) ?? { balance: Number(config.account.startingBalance), floor: 0, day: null }
  const todayPnl = pnlOfDay(closedTrades, today)
  const daily = config.dailyLossLimit
  const dailyLine = daily.enabled ? last.balance - todayPnl - Number(daily.amount) : null
  return { balance: last.balance, floor: last.floor, room: last.balance - last.floor, todayPnl, dailyLine, dailyRoom: dailyLine === null ? null : last.balance - dailyLine }
}

function describe(figures: RoomFigures): string {
  const parts = [
    `Balance ${money(figures.balance)}.`,
    `Trailing-drawdown floor ${money(figures.floor)}: ${money(figures.room)} of room left.`,
  ]
  parts.push(
    figures.dailyLine === null
      ? 'No daily loss limit.'
      : `This trading day ${money(figures.todayPnl)}; the daily loss line is ${money(figures.dailyLine)}, ${money(figures.dailyRoom ?? 0)} away.`,
  )
  return parts.join(' ')
}

let plot: uPlot | null = null

// The chart follows its box's width (a phone turned, a window resized). Made with the chart, so the
// module's figures can be loaded where there is no page (the gateway's tests).
const followWidth = (box: HTMLElement) =>
  new ResizeObserver(([entry]) => {
    if (entry === undefined) return
    const width = Math.max(280, Math.floor(entry.contentRect.width))
    if (plot !== null && plot.width !== width) plot.setSize({ width, height: 220 })
  }).observe(box)

// A canvas takes no CSS: the axes' labels and grid are painted in the page's own text and line colours,
// read when the chart is made, and the chart is made again when the system switches light and dark.
const cssColour = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim()
const axis = (): uPlot.Axis => ({ stroke: cssColour('--text'), grid: { stroke: cssColour('--line') }, ticks: { stroke: cssColour('--line') } })
let redraw: (() => void) | null = null
/** The x axis counts closed trades: whole steps only (uPlot's defaults put ticks at 0.25 of a trade). */
const WHOLE_TRADES = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000]
let followingScheme = false
function followScheme(): void {
  if (followingScheme) return
  followingScheme = true
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
    plot?.destroy()
    plot = null
    redraw?.()
  })
}

/** `today` is the trading day (trading-day.ts) the totals beside the chart use too. */
export function renderRoomLeft(closedTrades: readonly ClosedTrade[], config: PageRiskConfig, today: string): void {
  const points = balancePath(closedTrades, config)
  const figures = roomFigures(points, closedTrades, config, today)
  byId('room-figures').textContent = describe(figures)
  byId('room-left-summary').textContent = `${money(figures.room)} above the floor`
  const x = points.map((_point, index) => index)
  const data: uPlot.AlignedData = [x, points.map((p) => p.balance), points.map((p) => p.floor), points.map(() => figures.dailyLine)]
  const box = byId('room-chart')
  const width = Math.max(280, box.clientWidth || 600)
  const options: uPlot.Options = {
    width,
    height: 220,
    scales: { x: { time: false } },
    axes: [{ ...axis(), label: 'closed trades', incrs: WHOLE_TRADES }, { ...axis(), size: 70, values: (_u: uPlot, ticks: number[]) => ticks.map((tick) => money(tick).replace('.00', '')) }],
    series: [
      { label: 'Trade' },
      { label: 'Balance', stroke: '#1a56db', width: 2 },
      { label: 'Drawdown floor', stroke: '#d92d20', width: 2, dash: [6, 4] },
      { label: 'Daily loss line', stroke: '#b26b00', width: 1.5, dash: [2, 3], show: figures.dailyLine !== null },
    ],
  }
  redraw = () => renderRoomLeft(closedTrades, config, today)
  if (plot === null) {
    box.replaceChildren()
    plot = new window.uPlot(options, data, box)
    if (!followingScheme) followWidth(box)
    followScheme()
  } else {
    plot.setData(data)
  }
}
