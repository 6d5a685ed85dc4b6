// Copy buttons: a block of text the trader pastes elsewhere (a webhook URL, an alert message), with a button
// that copies it and says whether that worked (a browser may refuse the clipboard: then select by hand).

/** Copies `text`; the button says "Copied" (or how else to copy) for two seconds. */
export async function copyText(button: HTMLElement, text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text)
    button.textContent = 'Copied'
  } catch {
    button.textContent = 'Select and copy by hand'
  }
  setTimeout(() => (button.textContent = 'Copy'), 2000)
}

/** A caption, the text in a focusable `<pre id>` and its Copy button, labelled by `labelId` and the caption. */
export function copyable(id: string, labelId: string, label: string, text: string): HTMLElement[] {
  const caption = document.createElement('p')
  caption.className = 'muted small'
  caption.id = `${id}-label`
  caption.textContent = label
  const pre = document.createElement('pre')
  pre.id = id
  pre.tabIndex = 0
  pre.setAttribute('aria-labelledby', `${labelId} ${caption.id}`)
  pre.textContent = text
  const button = document.createElement('button')
  button.type = 'button'
  button.className = 'button small'
  button.textContent = 'Copy'
  button.setAttribute('aria-describedby', `${labelId} ${caption.id}`)
  button.addEventListener('click', () => void copyText(button, text))
  return [caption, pre, button]
}
