// The activity page's account filter (issue 22, docs/decisions/accounts.md "Pages"): records, trades, totals
// and the room-left chart of one account, or of all of them. Shown only to a trader with more than one account;
// a trader with one sees the page as before.
import { api } from './api.ts'
import { byId, element } from './dom.ts'

/** The chosen account's id, or undefined for every account (the `accountId` query left out). */
export function chosenAccount(): string | undefined {
  const value = byId<HTMLSelectElement>('activity-account').value
  return value === '' ? undefined : value
}

/**
 * Reads the trader's accounts and draws the choice, keeping the one chosen while it still exists (an account
 * removed elsewhere falls back to every account). Answers whether the choice changed. The list is extra: when
 * it cannot be read, the filter stays as it was and the page shows every account.
 */
export async function drawAccountFilter(): Promise<boolean> {
  const select = byId<HTMLSelectElement>('activity-account')
  const before = select.value
  let accounts
  try {
    accounts = (await api('GET /api/accounts')).accounts
  } catch {
    return false
  }
  const choices = accounts.map((account) => {
    const option = element('option', account.isPrimary ? `${account.name} (primary)` : account.name)
    option.value = account.id
    return option
  })
  const all = element('option', 'All accounts')
  all.value = ''
  select.replaceChildren(all, ...choices)
  select.value = accounts.some((account) => account.id === before) ? before : ''
  byId('activity-filter').hidden = accounts.length < 2
  return select.value !== before
}

export function onAccountChosen(listener: () => void): void {
  byId('activity-account').addEventListener('change', listener)
}
