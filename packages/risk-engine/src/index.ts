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
} from './config.ts'
export { normalizeRiskEngineConfig } from './stored-config.ts'
export type { AccountState, ContractTerms, EntryIntent, RefusalCode, SizingDecision, SizingInput } from './sizing-types.ts'
