import { AliasNode, TableNode, type CompiledQuery, type LogEvent, type OperationNode } from 'kysely'
import { SpanKind, SpanStatusCode, trace, tracerFor } from '@signals/telemetry'

/** What a span may say of a statement: its operation and its table, never its text or values. */
interface Statement {
  operation: string
  table: string | undefined
}

/**
 * Kysely's `log` hook making one client span per statement run within a trace while tracing is on, a child
 * of the active span (the caller's: Kysely calls it in the query's own async context), named
 * `<OPERATION> <table>`. The span
 * is made once the statement has run, dated back by its duration. Neither the SQL text nor its parameters
 * go on it: a raw statement may hold literals, a parameter a secret. Undefined while tracing is off, so
 * Kysely adds no timing around queries at all.
 */
export function querySpans(service: string): ((event: LogEvent) => void) | undefined {
  if (tracerFor(service) === null) return undefined
  return (event) => {
    const tracer = tracerFor(service)
    // Only within a trace: a timer's statement (the sweep, a status refresh) alone would be a trace of its own.
    if (tracer === null || trace.getActiveSpan() === undefined) return
    const ended = performance.now()
    const { operation, table } = statementOf(event.query)
    const span = tracer.startSpan(table === undefined ? operation : `${operation} ${table}`, {
      kind: SpanKind.CLIENT,
      startTime: ended - event.queryDurationMillis,
      attributes: { 'db.system.name': 'postgresql', 'db.operation.name': operation, ...(table === undefined ? {} : { 'db.collection.name': table }) },
    })
    if (event.level === 'error') {
      // The SQLSTATE only: Postgres' message may quote a value ("invalid input syntax for type uuid: ...").
      const code = (event.error as { code?: unknown } | null)?.code
      if (typeof code === 'string') span.setAttribute('db.response.status_code', code)
      span.setStatus({ code: SpanStatusCode.ERROR })
    }
    span.end(ended)
  }
}

/** A built query's operation and table from its tree; a raw one's from its text. */
function statementOf(query: CompiledQuery): Statement {
  const node = query.query
  switch (node.kind) {
    case 'SelectQueryNode':
      return { operation: 'SELECT', table: tableOf(node.from?.froms[0]) }
    case 'InsertQueryNode':
      return { operation: 'INSERT', table: tableOf(node.into) }
    case 'UpdateQueryNode':
      return { operation: 'UPDATE', table: tableOf(node.table) }
    case 'DeleteQueryNode':
      return { operation: 'DELETE', table: tableOf(node.from.froms[0]) }
    case 'MergeQueryNode':
      return { operation: 'MERGE', table: tableOf(node.into) }
    default:
      return statementOfText(query.sql)
  }
}

function tableOf(node: OperationNode | undefined): string | undefined {
  if (node === undefined) return undefined
  if (AliasNode.is(node)) return tableOf(node.node)
  return TableNode.is(node) ? node.table.identifier.name : undefined
}

/** The first keyword after any leading comments (`/* prepared *\/`). */
const FIRST_KEYWORD = /^\s*(?:\/\*[\s\S]*?\*\/\s*|--[^\n]*\n\s*)*([a-z]+)/i
/** The first statement writing to a table (not `FOR UPDATE`, not `DO UPDATE`). */
const WRITE = /(?<!\b(?:FOR|DO)\s+)\b(INSERT(?=\s+INTO)|UPDATE|DELETE(?=\s+FROM)|MERGE(?=\s+INTO))\s+(?:INTO\s+|FROM\s+)?(?:ONLY\s+)?([\w."]+)/i
/** The first table read (not a function: `FROM unnest(...)`, `EXTRACT(EPOCH FROM now())`). */
const READ = /\bFROM\s+([\w."]+)(?![\w."]|\s*\()/i
const WRITES = new Set(['WITH', 'INSERT', 'UPDATE', 'DELETE', 'MERGE'])

/**
 * A raw statement's operation and table, read from its text: the statement a `WITH` leads to when it writes
 * (`WITH ... INSERT INTO alerts` is an INSERT), the first table it reads otherwise.
 */
export function statementOfText(text: string): Statement {
  const keyword = (FIRST_KEYWORD.exec(text)?.[1] ?? 'SQL').toUpperCase()
  const write = WRITES.has(keyword) ? WRITE.exec(text) : null
  if (write !== null) return { operation: (write[1] ?? keyword).toUpperCase(), table: unquoted(write[2]) }
  const read = keyword === 'SELECT' || keyword === 'WITH' ? READ.exec(text) : null
  return { operation: keyword === 'WITH' ? 'SELECT' : keyword, table: unquoted(read?.[1]) }
}

const unquoted = (name: string | undefined) => name?.replaceAll('"', '')
