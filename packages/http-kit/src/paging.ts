import Type from 'typebox'

// The one paging style of the list routes (docs/decisions/code-shape.md): newest first, `limit` rows a
// page, `before` = the previous page's `nextCursor`. A cursor is the sort key of that page's last row, so
// a row added meanwhile neither shifts nor repeats a page. No totals: counting a whole table per page is
// what keyset paging avoids.

const Limit = Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'records per page (1-100)' })

const NEXT_PAGE = "the previous page's nextCursor: only older records"

/** The query of a list ordered by a serial id: the cursor is the id of the previous page's last row. */
export const PageQuery = {
  limit: Limit,
  before: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,15}$', description: NEXT_PAGE })),
}

export const NextCursor = Type.Union([Type.String(), Type.Null()], {
  description: 'pass as `before` for the next (older) page; null on the last page',
})

/** The cursor after a page of an id-ordered list: the id of its last (oldest) row when the page is full, else null. */
export function nextCursorOf(rows: readonly { id: number }[], limit: number): string | null {
  const last = rows.at(-1)
  return rows.length === limit && last ? String(last.id) : null
}

/** The id a `before` cursor of an id-ordered list stands for. */
export const beforeIdOf = (before: string | undefined): number | undefined => (before === undefined ? undefined : Number(before))

/**
 * The query of a list ordered by a time, then a text key (users: sign-up time, then user id). The cursor
 * is `<microseconds since 1970>.<key in base64url>`: Postgres keeps microseconds, a JS Date does not.
 */
export const TimeKeyPageQuery = {
  limit: Limit,
  before: Type.Optional(Type.String({ pattern: '^[0-9]{1,17}\\.[A-Za-z0-9_-]{1,1400}$', description: NEXT_PAGE })),
}

/** A row's place in a time-then-key list; `micros` as decimal text (Postgres `extract(epoch ...) * 1e6`). */
export interface TimeKey {
  micros: string
  key: string
}

/** The cursor after a page of a time-then-key list, null when the page is not full. */
export function nextTimeKeyCursorOf<Row>(rows: readonly Row[], limit: number, timeKeyOf: (row: Row) => TimeKey): string | null {
  const last = rows.at(-1)
  if (rows.length !== limit || last === undefined) return null
  const { micros, key } = timeKeyOf(last)
  return `${micros}.${Buffer.from(key, 'utf8').toString('base64url')}`
}

/** The place a `before` cursor of a time-then-key list stands for (the query schema checked its form). */
export function timeKeyOf(before: string | undefined): TimeKey | undefined {
  if (before === undefined) return undefined
  const dot = before.indexOf('.')
  return { micros: before.slice(0, dot), key: Buffer.from(before.slice(dot + 1), 'base64url').toString('utf8') }
}

/** A nullable timestamp as the API writes it. */
export const isoOrNull = (value: Date | null): string | null => (value === null ? null : value.toISOString())
