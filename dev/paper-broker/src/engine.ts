// The simulated market engine, for the wire faces built on it (this package's Tradovate face, and
// dev/paper-broker-projectx's ProjectX face). Imports run one way: a face imports the engine, never back.
// See docs/decisions/projectx-paper-broker.md.
export { PaperMarket, type MarketAccount, type MarketEvent, type TaggedOrder } from './market.ts'
export { findContract, contractById, type PaperContract } from './contracts.ts'
export { compareDecimal, normalizeDecimal, onTick } from './decimal-text.ts'
export { applyFill, netPos, type PositionState } from './position-book.ts'
// The engine's records are Tradovate-shaped (it was written for that face first); other faces translate them.
export type { Command, Fill, Order, OrderVersion, Position } from '@signals/tradovate-wire'
// Test controls (interference, delays, held requests) are the faces' shared machinery, not wire-specific.
export { RequestControls, type Interference } from './controls.ts'
