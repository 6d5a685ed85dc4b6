// Paging helpers of the list routes (newest first, `before` cursor + `nextCursor`); the query schema is in schemas/paging.ts.

/** The cursor of a page: the id of its last (oldest) row when the page is full, else null. */
export function nextCursorOf(rows: readonly { id: number }[], limit: number): string | null {
  const last = rows.at(-1)
  return rows.length === limit && last ? String(last.id) : null
}

/** A nullable timestamp as the API writes it. */
export const isoOrNull = (value: Date | null): string | null => (value === null ? null : value.toISOString())
