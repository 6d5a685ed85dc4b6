// The one way the pages find their elements: by id, typed by what the page's HTML has there.

/** The element with `id` (the HTML is ours: a missing one is a bug, said by name). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id)
  if (element === null) throw new Error(`the page has no #${id}`)
  return element as T
}

/** A status line's text and its kind (`info`, `success`, `error`: the stylesheet colours by `data-kind`). */
export function say(element: HTMLElement, text: string, kind: 'info' | 'success' | 'error' = 'info'): void {
  element.textContent = text
  element.dataset.kind = kind
}

/** A new element with its text (as text, never markup) and class. */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  if (text !== undefined) node.textContent = text
  if (className) node.className = className
  return node
}

/** A time as the trader's browser writes it; '–' for none. */
export function formatTime(value: string | null | undefined): string {
  if (!value) return '–'
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString()
}
