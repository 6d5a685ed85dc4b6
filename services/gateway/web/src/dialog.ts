// Questions asked with the page's <dialog> elements (a confirmation before an action that cannot be undone).
import { byId } from './dom.ts'

/** Opens the dialog; resolves true when `confirmId` is pressed, false on `cancelId` or Escape. */
export function ask(dialogId: string, confirmId: string, cancelId: string): Promise<boolean> {
  const dialog = byId<HTMLDialogElement>(dialogId)
  return new Promise((resolve) => {
    const done = (answer: boolean) => {
      byId(confirmId).removeEventListener('click', yes)
      byId(cancelId).removeEventListener('click', no)
      dialog.removeEventListener('cancel', no)
      dialog.close()
      resolve(answer)
    }
    const yes = () => done(true)
    const no = () => done(false)
    byId(confirmId).addEventListener('click', yes)
    byId(cancelId).addEventListener('click', no)
    dialog.addEventListener('cancel', no)
    dialog.showModal()
  })
}
