// The one way the pages find their elements: by id, typed by what the page's HTML has there.

/** The element with `id` (the HTML is ours: a missing one is a bug, said by name). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id)
  if (element === null) throw new Error(`the page has no #${id}`)
  return element as T
}
