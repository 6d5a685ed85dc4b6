import type { TSchema, Static } from 'typebox'
import { Compile, type Validator } from 'typebox/compile'
import { Format } from 'typebox/format'

/**
 * Timestamps repeat: a service stamps everything it receives within one millisecond with the same string,
 * and one message carries it in several places. The last valid date-time is remembered, so checking it again
 * costs a comparison instead of the full RFC 3339 test. Set before any schema is compiled (compiled checks
 * capture the format function).
 */
let lastValidDateTime = ''
Format.Set('date-time', (value: string) => {
  if (value === lastValidDateTime) return true
  if (!Format.IsDateTime(value)) return false
  lastValidDateTime = value
  return true
})

export interface ValidationIssue {
  path: string
  message: string
}

export type Validation<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] }

export interface Contract<S extends TSchema> {
  readonly schema: S
  check(value: unknown): value is Static<S>
  validate(value: unknown): Validation<Static<S>>
  /** Null when `value` holds to the contract (nothing allocated); otherwise its first issues in one line. */
  problem(value: unknown): string | null
}

/**
 * Compiles a schema once, at its first use; `validate` returns the value or every issue with its JSON path.
 * Contracts are made when their modules load and many are used seldom or never in a process's life (a
 * handoff's, a broker's); a compiled one keeps its generated source (a rope of thousands of pieces), the
 * function made from it and that function's code for good: the connector held 36 at rest, about 0.4 MiB of
 * generated source alone (docs/decisions/memory.md). A schema that cannot compile now fails its first use.
 */
export function contract<S extends TSchema>(schema: S): Contract<S> {
  let validator: Validator<Record<never, never>, S> | undefined
  const compiled = () => (validator ??= Compile(schema))
  const issuesOf = (value: unknown): ValidationIssue[] =>
    [...compiled().Errors(value)].slice(0, 10).map((error) => ({
      path: error.instancePath || '/',
      message: error.message,
    }))
  return {
    schema,
    check: (value: unknown): value is Static<S> => compiled().Check(value),
    validate(value: unknown): Validation<Static<S>> {
      if (compiled().Check(value)) return { ok: true, value }
      return { ok: false, issues: issuesOf(value) }
    },
    problem(value: unknown): string | null {
      if (compiled().Check(value)) return null
      return describeIssues(issuesOf(value)) || 'rejected by its contract'
    },
  }
}

/** One line naming the first problems, for logs and 400 bodies. */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => `${issue.path} ${issue.message}`).join('; ')
}
