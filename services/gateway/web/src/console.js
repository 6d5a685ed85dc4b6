// The operator's console: users awaiting approval, bans (add any e-mail, lift), the audit log (by action
// and actor) and the intake log (by outcome, raw body on demand, replay of a refused webhook). Every value
// reaches the page through textContent; the admin service refuses anyone but an administrator.
import { bannedLoginUrl } from './banned.ts'

const $ = (id) => document.getElementById(id)
const PAGE = 20

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const payload = await response.json().catch(() => null)
  if (response.status === 401) window.location.assign('/login.html?error=session')
  if (response.status === 403 && payload?.error === 'Account banned') window.location.assign(bannedLoginUrl(payload.reason))
  if (!response.ok || payload === null || payload.success === false) throw new Error(payload?.error ?? `the server answered ${response.status}`)
  return payload
}

const when = (iso) => (iso ? new Date(iso).toLocaleString() : '–')
const say = (id, text, kind = 'info') => {
  $(id).textContent = text
  $(id).dataset.kind = kind
}
function cells(row, ...values) {
  for (const value of values) {
    const td = document.createElement('td')
    if (value instanceof Node) td.append(value)
    else td.textContent = value ?? '–'
    row.append(td)
  }
  return row
}
function button(label, className, onClick) {
  const node = document.createElement('button')
  node.type = 'button'
  node.className = `button small ${className}`
  node.textContent = label
  node.addEventListener('click', () => void onClick(node))
  return node
}
function emptyRow(body, columns, text) {
  if (body.childElementCount > 0) return
  const td = document.createElement('td')
  td.colSpan = columns
  td.className = 'muted'
  td.textContent = text
  const row = document.createElement('tr')
  row.append(td)
  body.append(row)
}

// ------------------------------------------------------------------------------ users awaiting approval

async function loadPending() {
  const { users } = await api('GET', '/api/admin/users?status=pending&limit=50')
  const body = $('pending-users')
  body.replaceChildren()
  for (const user of users) {
    const row = document.createElement('tr')
    row.dataset.email = user.email
    const approve = button('Approve', 'primary', async (node) => {
      node.disabled = true
      try {
        await api('POST', `/api/admin/users/${encodeURIComponent(user.userId)}/approve`)
        say('users-message', `${user.email} approved.`, 'success')
        await loadPending()
      } catch (error) {
        node.disabled = false
        say('users-message', `${user.email} not approved: ${error.message}`, 'error')
      }
    })
    approve.setAttribute('aria-label', `Approve ${user.email}`)
    body.append(cells(row, user.email, user.name, when(user.createdAt), approve))
  }
  emptyRow(body, 4, 'Nobody is waiting.')
}

// ------------------------------------------------------------------------------------------------ bans

const bans = { trail: [] }

async function loadBans() {
  const { bans: list, nextCursor } = await api('GET', `/api/admin/bans?${pageQuery(bans)}`)
  const body = $('bans-body')
  body.replaceChildren()
  for (const ban of list) {
    const lift = button('Lift', '', async (node) => {
      node.disabled = true
      try {
        await api('DELETE', `/api/admin/bans/${encodeURIComponent(ban.email)}`)
        say('bans-message', `Ban of ${ban.email} lifted.`, 'success')
        await loadBans()
      } catch (error) {
        node.disabled = false
        say('bans-message', `Ban of ${ban.email} not lifted: ${error.message}`, 'error')
      }
    })
    lift.setAttribute('aria-label', `Lift the ban of ${ban.email}`)
    body.append(cells(document.createElement('tr'), ban.email, ban.reason, when(ban.createdAt), lift))
  }
  emptyRow(body, 4, 'No bans.')
  pager('bans', bans, nextCursor, loadBans)
}

// Lists page by cursor (newest first): `state.trail` holds the `before` cursor of every page after the
// first one shown so far, so Previous steps back through it and Next adds the answer's `nextCursor`.

/** The paging part of a list's query: PAGE rows, before the current page's cursor. */
function pageQuery(state) {
  const query = new URLSearchParams({ limit: String(PAGE) })
  const before = state.trail.at(-1)
  if (before !== undefined) query.set('before', before)
  return query
}

function pager(prefix, state, nextCursor, load) {
  $(`${prefix}-page`).textContent = `Page ${state.trail.length + 1}`
  $(`${prefix}-previous`).disabled = state.trail.length === 0
  $(`${prefix}-next`).disabled = nextCursor === null
  // A page that fails to load leaves the trail where it was, so the page shown and its number still agree.
  $(`${prefix}-previous`).onclick = () => {
    const left = state.trail.pop()
    void load().catch((error) => {
      state.trail.push(left)
      showError(error)
    })
  }
  $(`${prefix}-next`).onclick = () => {
    state.trail.push(nextCursor)
    void load().catch((error) => {
      state.trail.pop()
      showError(error)
    })
  }
}

async function addBan(event) {
  event.preventDefault()
  const email = $('ban-email').value.trim()
  const reason = $('ban-reason').value.trim()
  if (!window.confirm(`Ban ${email}? Their sessions end at once and their live trading is switched off.`)) return
  try {
    await api('POST', '/api/admin/bans', { email, reason: reason === '' ? null : reason })
    say('bans-message', `${email} banned.`, 'success')
    $('ban-form').reset()
    await Promise.all([loadBans(), loadPending()])
  } catch (error) {
    say('bans-message', `${email} not banned: ${error.message}`, 'error')
  }
}

// ------------------------------------------------------------------------------------------- audit log

const audit = { trail: [] }

async function loadAudit() {
  const query = pageQuery(audit)
  if ($('audit-action').value) query.set('action', $('audit-action').value)
  if ($('audit-actor').value.trim()) query.set('actor', $('audit-actor').value.trim())
  const { entries, nextCursor } = await api('GET', `/api/admin/audit?${query}`)
  const body = $('audit-body')
  body.replaceChildren()
  // People by e-mail (the ids are the provider's opaque numbers); the id only when the user row is gone.
  for (const entry of entries) {
    body.append(cells(document.createElement('tr'), when(entry.createdAt), entry.actorEmail ?? entry.actorUserId, entry.action, entry.targetEmail ?? entry.target, entry.reason))
  }
  emptyRow(body, 5, 'No entries.')
  pager('audit', audit, nextCursor, loadAudit)
}

// ------------------------------------------------------------------------------------------ intake log

const intake = { cursor: null }

function intakeRow(entry) {
  const row = document.createElement('tr')
  row.dataset.id = entry.id
  row.dataset.outcome = entry.outcome
  let reason = entry.reason ?? ''
  const detail = document.createElement('div')
  detail.textContent = reason || '–'
  if (entry.rawBody !== undefined) {
    const pre = document.createElement('pre')
    pre.className = 'raw'
    pre.textContent = entry.rawBody
    detail.append(pre)
  }
  const action = entry.replayable
    ? button('Replay', '', async (node) => {
        // A replay that is accepted is a new alert: it can place orders for every trader with live trading on.
        const question = `Replay the webhook received ${when(entry.receivedAt)} (${entry.outcome})? If ingest accepts it now, it is traded like a new alert.`
        if (!window.confirm(question)) return
        node.disabled = true
        try {
          const { replay } = await api('POST', `/api/admin/intake/${entry.id}/replay`)
          say('intake-message', `Replayed: ingest answered ${replay.statusCode}${replay.accepted ? ' (accepted)' : ''}.`, replay.accepted ? 'success' : 'error')
          await loadIntake(false)
        } catch (error) {
          node.disabled = false
          say('intake-message', `Not replayed: ${error.message}`, 'error')
        }
      })
    : ''
  if (action) action.setAttribute('aria-label', `Replay the webhook received ${when(entry.receivedAt)}`)
  return cells(row, when(entry.receivedAt), entry.outcome, String(entry.statusCode), entry.source, detail, action)
}

async function loadIntake(append) {
  const query = new URLSearchParams({ limit: String(PAGE) })
  if ($('intake-outcome').value) query.set('outcome', $('intake-outcome').value)
  if ($('intake-raw').checked) query.set('raw', 'true')
  if (append && intake.cursor) query.set('before', intake.cursor)
  const page = await api('GET', `/api/admin/intake?${query}`)
  intake.cursor = page.nextCursor
  if (!append) $('intake-body').replaceChildren()
  $('intake-body').append(...page.entries.map(intakeRow))
  emptyRow($('intake-body'), 6, 'No webhooks.')
  $('intake-more').hidden = intake.cursor === null
}

// ------------------------------------------------------------------------------------------------ start

function showError(error) {
  const box = $('console-error')
  box.textContent = `The console could not load: ${error.message}.`
  box.hidden = false
}

function wire() {
  $('ban-form').addEventListener('submit', (event) => void addBan(event))
  $('audit-filter').addEventListener('submit', (event) => {
    event.preventDefault()
    audit.trail = []
    void loadAudit().catch(showError)
  })
  $('intake-filter').addEventListener('submit', (event) => {
    event.preventDefault()
    void loadIntake(false).catch(showError)
  })
  $('intake-more').addEventListener('click', () => void loadIntake(true).catch(showError))
}

wire()
Promise.all([loadPending(), loadBans(), loadAudit(), loadIntake(false)]).catch(showError)
