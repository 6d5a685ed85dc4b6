import type { RefusalCode, SizingDecision } from './sizing-types.ts'

export type Refusal = Extract<SizingDecision, { kind: 'refuse' }>

export const refuse = (code: RefusalCode, reason: string, flatten = false): Refusal => ({ kind: 'refuse', code, reason, flatten })
