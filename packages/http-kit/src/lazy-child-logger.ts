import type { FastifyBaseLogger } from 'fastify'
import type { Logger } from 'pino'

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'
type Bindings = Record<string, unknown>
interface ChildOptions {
  level?: string
}

/**
 * A request's logger that becomes a pino child only when something is written through it. Fastify makes a
 * child per request for the request id; with redaction configured, pino serializes and redacts the
 * bindings at once, a measurable share of a fast request's CPU (docs/benchmarks/ingest.md), although most
 * requests never log a line at the configured level.
 */
class LazyChildLogger {
  #child: Logger | undefined

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  get level(): string {
    return this.#child?.level ?? this.options.level ?? this.parent.level
  }

  set level(level: string) {
    this.#real().level = level
  }

  isLevelEnabled(level: string): boolean {
    if (this.#child !== undefined) return this.#child.isLevelEnabled(level)
    const values = this.parent.levels.values
    const threshold = values[this.options.level ?? this.parent.level] ?? Number.POSITIVE_INFINITY
    return (values[level] ?? Number.NEGATIVE_INFINITY) >= threshold
  }

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options)
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args)
  }

  error(...args: unknown[]): void {
    this.#write('error', args)
  }

  warn(...args: unknown[]): void {
    this.#write('warn', args)
  }

  info(...args: unknown[]): void {
    this.#write('info', args)
  }

  debug(...args: unknown[]): void {
    this.#write('debug', args)
  }

  trace(...args: unknown[]): void {
    this.#write('trace', args)
  }

  silent(): void {}

  #real(): Logger {
    this.#child ??= this.parent.child(this.bindings, this.options)
    return this.#child
  }

  #write(level: Level, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return
    ;(this.#real()[level] as (...values: unknown[]) => void)(...args)
  }
}

/** Fastify `childLoggerFactory` for a pino logger: request loggers are created on first write. */
export function lazyChildLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildOptions): FastifyBaseLogger {
  return new LazyChildLogger(logger as Logger, bindings, options) as unknown as FastifyBaseLogger
}
