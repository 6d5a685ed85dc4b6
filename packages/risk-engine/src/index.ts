export {
  AccountArea,
  AntiMartingaleArea,
  ConsistencyRuleArea,
  DailyLossLimitArea,
  DEFAULT_RISK_ENGINE_CONFIG,
  LimitsArea,
  PayoutSecurityArea,
  RISK_AREAS,
  RISK_MODES,
  RiskEngineConfig,
  RiskModeArea,
  TRAILING_MODES,
  TrailingDrawdownArea,
  VerificationArea,
  crossFieldProblem,
  withSessionRules,
  type RiskEngineConfigInput,
} from './config.ts'
export { SessionRulesArea, TradingWindow, type SessionRules } from './session-rules-config.ts'
export { dueDailyFlatten } from './daily-flatten.ts'
export { sessionGate, type SessionCounts, type NewsEvent, type SessionRefusalCode } from './session-gate.ts'
export { normalizeRiskEngineConfig } from './stored-config.ts'
export type {
  AccountState,
  ContractTerms,
  EntryIntent,
  MarketView,
  OpenTradeState,
  OrderCaps,
  RefusalCode,
  SizingDecision,
  SizingInput,
} from './sizing-types.ts'
export { sizeEntry } from './size-entry.ts'
export { deriveAccountState, type TradeHistory } from './account-state.ts'
export { closedTradingDays, type ClosedTradeRecord, type ClosedTradingDay } from './closed-days.ts'
export { drawdownFloor } from './drawdown.ts'
export { closingAction, positionOpenPnl, type PositionMark } from './open-pnl.ts'
export { positionBreach, type PositionBreach } from './position-watch.ts'
export { antiMartingaleContracts } from './anti-martingale.ts'
export { tradingDayOf } from '@signals/instruments'
export { RiskEngineConfigPatch, type ConfigFieldPath, type ConfigFieldValue, type ConfigFieldValues } from './config-fields.ts'
export { PROP_FIRM_PRESETS, propFirmPreset, type PropFirmPreset, type PresetSource } from './prop-firm-presets.ts'
export { applyPreset, fieldsChangedFromPreset, type PresetApplied } from './apply-preset.ts'
export { closeInAccount, partialCloseQuantity, type ClosePartAsked, type CloseInAccount, type PartialClose } from './partial-close.ts'
export { additionRoom, positionChange, type PositionChange, type PositionChangeCode } from './position-change.ts'
export { PositionChangesArea, type PositionChanges } from './position-changes-config.ts'
