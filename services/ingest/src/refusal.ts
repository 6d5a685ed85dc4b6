import { HttpError } from '@signals/http-kit'
import type { IntakeOutcome } from './intake/intake-state.ts'

/** A webhook refused with a 4xx/5xx answer; its outcome goes to the intake log. */
export class Refusal extends HttpError {
  constructor(
    statusCode: number,
    readonly outcome: IntakeOutcome,
    message: string,
  ) {
    super(statusCode, message)
    this.name = 'Refusal'
  }
}
