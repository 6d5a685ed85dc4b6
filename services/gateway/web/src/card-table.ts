// Tables that become cards at phone width (styles.css, `table.cards`): each cell carries its column's label,
// shown beside the value once the row is a card, so nothing needs a sideways scroll.

export interface Column<T> {
  label: string
  /** The cell's content: text, or an element (a button, a time). */
  value: (item: T) => string | Node
  className?: string
  /** `data-sign` of a money cell (positive or negative colours). */
  sign?: (item: T) => 'positive' | 'negative' | undefined
}

/** The sign of a decimal for colouring: none for zero or unknown. */
export function signOf(amount: string | null | undefined): 'positive' | 'negative' | undefined {
  const value = Number(amount ?? 'NaN')
  if (!Number.isFinite(value) || value === 0) return undefined
  return value < 0 ? 'negative' : 'positive'
}

/** One row of a cards table: a cell per column, each labelled with its column. */
export function rowOf<T>(columns: readonly Column<T>[], item: T, decorate?: (row: HTMLTableRowElement, item: T) => void): HTMLTableRowElement {
  const row = document.createElement('tr')
  for (const column of columns) {
    const cell = document.createElement('td')
    cell.dataset.label = column.label
    if (column.className) cell.className = column.className
    const sign = column.sign?.(item)
    if (sign) cell.dataset.sign = sign
    const value = column.value(item)
    if (typeof value === 'string') cell.textContent = value
    else cell.append(value)
    row.append(cell)
  }
  decorate?.(row, item)
  return row
}

/** Replaces the rows of `body` with one row per item; returns how many. */
export function fillRows<T>(body: HTMLElement, columns: readonly Column<T>[], items: readonly T[], decorate?: (row: HTMLTableRowElement, item: T) => void): number {
  body.replaceChildren(...items.map((item) => rowOf(columns, item, decorate)))
  return items.length
}
