// The trader page's modules (web/src/*.ts), loaded in Node for their pure functions: a module that touched
// the page while loading would throw here.
export * as pageTradingDay from '../../web/src/trading-day.ts'
export * as pageTotals from '../../web/src/totals.ts'
export * as pageRoomLeft from '../../web/src/room-left.ts'
export * as pageSetup from '../../web/src/setup.ts'
export * as pageOutcomes from '../../web/src/outcomes.ts'
export type { ClosedTrade } from '../../web/src/totals.ts'
export type { PageRiskConfig, BalancePoint, RoomFigures } from '../../web/src/room-left.ts'
export type { AlertTemplate } from '../../web/src/setup.ts'
export * as pageRiskFields from '../../web/src/risk-fields.ts'
export * as pageRiskExample from '../../web/src/risk-example.ts'
export * as pageRiskStrategy from '../../web/src/risk-strategy.ts'
