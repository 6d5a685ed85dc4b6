/**
 * What carrying out an instruction came to: done (the record is `placed`, its reason says what was done),
 * refused (nothing to do or not allowed: with a code), failed (the broker refused part of it: what was and
 * was not done), retry (the broker asked us to wait: the message comes back; what was done is done again,
 * which changes nothing, as every instruction sets absolute prices or cancels).
 */
export type InstructionOutcome =
  | { kind: 'done'; reason: string }
  | { kind: 'refused'; code: string; reason: string }
  | { kind: 'failed'; reason: string }
  | { kind: 'retry'; note: string; done?: string[] }
