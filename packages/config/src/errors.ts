/** Thrown when the environment does not satisfy a service's configuration schema. */
export class ConfigError extends Error {
  readonly offenders: readonly string[]

  constructor(offenders: readonly { variable: string; problem: string }[]) {
    const lines = offenders.map((o) => `  - ${o.variable}: ${o.problem}`)
    super(`Invalid configuration (${offenders.length} problem${offenders.length === 1 ? '' : 's'}):\n${lines.join('\n')}`)
    this.name = 'ConfigError'
    this.offenders = offenders.map((o) => o.variable)
  }
}
