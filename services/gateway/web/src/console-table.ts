// The console's tables: row buttons, the line an empty list shows, and the console's error box. Rows are
// `card-table.ts`'s `rowOf` from each list's columns, as on the home page and the Positions page.
import { byId, element } from './dom.ts'

/** A row button named for screen readers by `name` (its visible label is short). */
export function rowButton(label: string, className: string, name: string, onClick: (node: HTMLButtonElement) => Promise<void>): HTMLButtonElement {
  const node = element('button', label, `button small ${className}`.trim())
  node.type = 'button'
  node.setAttribute('aria-label', name)
  node.addEventListener('click', () => void onClick(node))
  return node
}

/** The empty list's line, spanning the table, when `body` has no row. */
export function emptyRow(body: HTMLElement, columns: number, text: string): void {
  if (body.childElementCount > 0) return
  const td = element('td', text, 'muted')
  td.colSpan = columns
  const row = element('tr')
  row.append(td)
  body.append(row)
}

/** The console's error box: a part that could not load. */
export function showConsoleError(error: unknown): void {
  const box = byId('console-error')
  box.textContent = `The console could not load: ${error instanceof Error ? error.message : String(error)}.`
  box.hidden = false
}
