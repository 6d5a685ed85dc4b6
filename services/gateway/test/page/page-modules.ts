// The trader page's plain ES modules (public/*.js), loaded in Node for their pure functions. They carry no
// types, so each is imported by URL and given the shape the tests use; a module that touched the page
// while loading would throw here.

export interface ClosedTrade {
  closedAt: string
  pnl: string
}

export interface PageRiskConfig {
  account: { startingBalance: number }
  trailingDrawdown: { amount: number; mode: 'end_of_day' | 'intraday_realized' | 'intraday_unrealized'; stopTrailingAtBalance: number | null }
  dailyLossLimit: { enabled: boolean; amount: number }
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

interface TradingDayModule {
  tradingDayOf(at: Date | string): string
}

interface TotalsModule {
  totalsOf(closed: ClosedTrade[], today: string): { today: number; total: number; count: number; winRate: number | null }
}

interface RoomLeftModule {
  balancePath(closed: ClosedTrade[], config: PageRiskConfig): BalancePoint[]
  roomFigures(points: BalancePoint[], closed: ClosedTrade[], config: PageRiskConfig, today: string): RoomFigures
}

/** One message the set-up card offers: where to send it (the webhook URL to paste) and what to paste. */
export interface AlertTemplate {
  id: string
  title: string
  url: string
  message: string
}

interface SetupModule {
  alertTemplates(userId: string, webhookUrl: string): AlertTemplate[]
}

const load = async <Module>(file: string) => (await import(new URL(`../../web/src/${file}`, import.meta.url).href)) as Module

export const pageTradingDay = await load<TradingDayModule>('trading-day.js')
export const pageTotals = await load<TotalsModule>('totals.js')
export const pageRoomLeft = await load<RoomLeftModule>('room-left.js')
export const pageSetup = await load<SetupModule>('setup.js')

interface OutcomesModule {
  outcomeText(record: { status: string; reason: string | null; orderQuantity?: number | null; contract?: string | null; symbol?: string | null }): string
  tradeOutcomeText(trade: { status: string; result: string | null; parentTradeId: string | null; exitRequestedAt: string | null; exitNote: string | null }): string
}

export const pageOutcomes = await load<OutcomesModule>('outcomes.js')
