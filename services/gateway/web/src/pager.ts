// Lists paged by cursor (newest first): `trail` holds the `before` cursor of every page after the first one
// shown so far, so Previous steps back through it and Next adds the answer's `nextCursor`. A page that fails
// to load leaves the trail where it was, so the page shown and its number still agree.
import { byId } from './dom.ts'

export interface Trail {
  trail: string[]
}

/** The current page's `before` cursor (undefined on the first page). */
export const beforeOf = (state: Trail): string | undefined => state.trail.at(-1)

/**
 * Shows "Page N" and sets `PREFIX-previous` / `PREFIX-next` for the list just loaded; `load` reloads it and
 * answers whether it could (a refusal is said by `load` itself).
 */
export function showPager(prefix: string, state: Trail, nextCursor: string | null, load: () => Promise<boolean>): void {
  byId(`${prefix}-page`).textContent = `Page ${state.trail.length + 1}`
  const previous = byId<HTMLButtonElement>(`${prefix}-previous`)
  const next = byId<HTMLButtonElement>(`${prefix}-next`)
  previous.disabled = state.trail.length === 0
  next.disabled = nextCursor === null
  previous.onclick = async () => {
    const left = state.trail.pop()
    if (!(await load()) && left !== undefined) state.trail.push(left)
  }
  next.onclick = async () => {
    if (nextCursor === null) return
    state.trail.push(nextCursor)
    if (!(await load())) state.trail.pop()
  }
}
