// The one way the pages find their elements: by id, typed by what the page's HTML has there.
import { bothZones } from './exchange-time.ts'

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

/** A time in the trader's zone with the exchange's clock beside it (`Nov 26, 16:30:05 GMT+1 · 09:30 CT`); '–' for none. */
export function formatTime(value: string | null | undefined): string {
  if (!value) return '–'
  if (Number.isNaN(new Date(value).getTime())) return value
  const { local, exchange } = bothZones(value)
  return `${local} · ${exchange}`
}
