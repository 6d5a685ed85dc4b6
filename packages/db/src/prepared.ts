import { sql } from 'kysely'

const MARKER = '/* prepared */ '
/** Distinct statements a process prepares at most; a marked statement beyond them runs unnamed. */
const MAX_PREPARED = 64
const names = new Map<string, string>()

/**
 * Put first in a statement whose text never changes between calls (its values are parameters): each pooled
 * connection then parses and plans it once, by name, instead of on every call. For the connector's entry
 * statement Postgres spent about 1.3 ms of its 1.5 ms in parse and plan (docs/benchmarks/platform.md).
 * Postgres plans again by itself when a table it reads changes.
 */
export const prepared = sql.raw(MARKER)

/** A marked statement's arguments for node-postgres as a named query; any other statement's as they came. */
export function namedIfPrepared(args: unknown[]): unknown[] {
  const [text, values] = args
  if (typeof text !== 'string' || !text.startsWith(MARKER)) return args
  let name = names.get(text)
  if (name === undefined) {
    if (names.size >= MAX_PREPARED) return args
    name = `prepared_${names.size + 1}`
    names.set(text, name)
  }
  return [{ name, text, values }]
}
