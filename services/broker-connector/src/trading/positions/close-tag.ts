/** Our tag on a partial close's order: not an entry's or a leg's (`sig-…`), so its fill closes trades first in, first out. */
export const partialCloseTagOf = (flattenId: number) => `pc-${flattenId}`

/** The flatten request a partial close's order tag names (`partialCloseTagOf`), or null for any other tag. */
export function flattenIdOfCloseTag(tag: string | null): number | null {
  const id = Number(/^pc-(\d+)$/.exec(tag ?? '')?.[1] ?? Number.NaN)
  return Number.isSafeInteger(id) ? id : null
}

/** How long a sent close (a partial close, a source's exit) that the broker does not list is looked for before it is given up (never sent twice). */
export const SENT_GRACE_MS = 60_000
