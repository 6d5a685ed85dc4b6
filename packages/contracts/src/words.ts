import type { Static } from 'typebox'
import { LiteralUnion } from './literal-union.ts'
import { BROKER_NAMES } from './brokers/registry.ts'

// The platform's shared words, one source each: schemas here, static types beside them, and
// packages/db/src/schema.ts's column types derived from them. (Side is in alert.ts, IntakeOutcome in
// bus-messages.ts.)

export const Role = LiteralUnion(['trader', 'admin'] as const)
export type Role = Static<typeof Role>

/** Every per-user setting, in the order the settings service reads and fills them. */
export const SETTING_KEYS = ['risk_strategy', 'live_trading'] as const
export const SettingKey = LiteralUnion(SETTING_KEYS)
export type SettingKey = Static<typeof SettingKey>

export const TradeStatus = LiteralUnion(['open', 'closed', 'cancelled'] as const)
export type TradeStatus = Static<typeof TradeStatus>

/** How a trade ended: a result alert's `Exit` is stored as `Session End`. */
export const TradeResult = LiteralUnion(['TP', 'SL', 'Session End'] as const)
export type TradeResult = Static<typeof TradeResult>

/** A broker's name: a key of the broker registry (brokers/registry.ts), the one list of them. */
export const BrokerName = LiteralUnion(BROKER_NAMES)
export type BrokerName = Static<typeof BrokerName>

export const BrokerEnvironment = LiteralUnion(['demo', 'live'] as const)
export type BrokerEnvironment = Static<typeof BrokerEnvironment>

/** An alert record's order outcome: received -> placing -> placed | refused | failed; not_placed when auto-place is off; test. */
export const AlertRecordStatus = LiteralUnion(['received', 'placing', 'placed', 'refused', 'failed', 'not_placed', 'test'] as const)
export type AlertRecordStatus = Static<typeof AlertRecordStatus>
