// The trader's home page: the status card with its switches and kill switch, the settings panel with the
// one risk section, broker credentials and, for administrators, the user list. Each part loads on its own:
// one service being down leaves the others usable. No inline code (the page runs under `script-src 'self'`);
// every value from the server reaches the page as text or a form control's value, never as markup.
import { openAdministration } from './admin-users.ts'
import { api, isLeaving, reasonOf } from './api.ts'
import { wireCloseTrade } from './close-trade.ts'
import { loadCredentials, wireCredentials } from './credentials.ts'
import { byId } from './dom.ts'
import { wireKillSwitch } from './kill-switch.ts'
import { loadSettingsPanel, wireSettingsForm } from './settings-panel.ts'
import { refreshStatus } from './status-card.ts'
import { wireSwitches } from './switches.ts'

function showPageError(text: string): void {
  const box = byId('page-error')
  box.textContent = box.hidden ? text : `${box.textContent ?? ''} ${text}`
  box.hidden = false
}

/** Who is signed in; an unreadable user list costs the page nothing but that section. */
async function loadProfile(): Promise<void> {
  const { user } = await api('GET /auth/me')
  byId('who-name').textContent = user.name ? `${user.name} (${user.email})` : user.email
  if (user.picture) {
    const picture = byId<HTMLImageElement>('who-picture')
    picture.src = user.picture
    picture.hidden = false
    picture.addEventListener('error', () => (picture.hidden = true), { once: true })
  }
  byId('who').hidden = false
  await openAdministration(user).catch((error: unknown) => showPageError(`Could not load the user list: ${reasonOf(error)}.`))
}

async function start(): Promise<void> {
  wireSettingsForm()
  wireCredentials()
  wireSwitches()
  wireKillSwitch()
  wireCloseTrade()
  // The live socket (activity.ts) says when the status changed elsewhere: another tab, the broker feed.
  document.addEventListener('signals:status-changed', () => void refreshStatus().catch(() => undefined))

  const parts: Array<[string, () => Promise<void>, () => void]> = [
    ['your settings', loadSettingsPanel, () => (byId('indicator-label').textContent = 'Status unavailable')],
    ['your broker credentials', loadCredentials, () => (byId('credentials-summary').textContent = 'Stored credentials could not be read.')],
    ['your profile', loadProfile, () => undefined],
  ]
  await Promise.all(
    parts.map(([what, load, unavailable]) =>
      load().catch((error: unknown) => {
        // A redirect to sign-in or to the pending page is already under way.
        if (isLeaving(error)) return
        unavailable()
        showPageError(`Could not load ${what}: ${reasonOf(error)}.`)
      }),
    ),
  )
}

void start()
