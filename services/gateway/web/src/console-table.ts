// The console's tables: rows of text cells (never markup), row buttons, and the line an empty list shows.
import { byId, element } from './dom.ts'
import { labelFromHead } from './card-table.ts'

export function cells(row: HTMLTableRowElement, ...values: Array<string | null | undefined | Node>): HTMLTableRowElement {
  for (const value of values) {
    const td = element('td')
    if (value instanceof Node) td.append(value)
    else td.textContent = value ?? '–'
    row.append(td)
  }
  return row
}

/** A row button named for screen readers by `name` (its visible label is short). */
export function rowButton(label: string, className: string, name: string, onClick: (node: HTMLButtonElement) => Promise<void>): HTMLButtonElement {
  const node = element('button', label, `button small ${className}`.trim())
  node.type = 'button'
  node.setAttribute('aria-label', name)
  node.addEventListener('click', () => void onClick(node))
  return node
}

/** Ends a table's drawing: each cell labelled for the phone's cards, or the empty list's line. */
export function emptyRow(body: HTMLElement, columns: number, text: string): void {
  labelFromHead(body)
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
