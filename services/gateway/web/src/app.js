// The trader's home page: live-trading status, the settings panel (the spec's client save sequence),
// broker credentials and, for administrators, the users awaiting approval.
// No framework and no inline code (the page runs under `script-src 'self'`); every value from the server
// reaches the page through textContent or a form control's value, never as markup.
import { bannedLoginUrl } from './banned.ts'
import { renderSwitches, setupCockpit } from './cockpit.js'

const $ = (id) => document.getElementById(id)

// ---------------------------------------------------------------------------------------------- API

class ApiError extends Error {
  constructor(status, message) {
    super(message)
    this.status = status
  }
}

/** One JSON call to the gateway. 401, "pending approval" and "banned" leave the page, as the gateway's pages do. */
async function api(method, path, body) {
  let response
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch {
    throw new ApiError(0, 'The server cannot be reached. Check your connection and try again.')
  }
  const payload = await response.json().catch(() => null)
  if (response.status === 401) {
    window.location.assign('/login.html?error=session')
    throw new ApiError(401, 'Authentication required')
  }
  if (response.status === 403 && payload?.error === 'Account pending approval') {
    window.location.assign('/pending-approval.html')
    throw new ApiError(403, payload.error)
  }
  if (response.status === 403 && payload?.error === 'Account banned') {
    window.location.assign(bannedLoginUrl(payload.reason))
    throw new ApiError(403, payload.error)
  }
  if (!response.ok || payload === null || payload.success === false) {
    const reason = typeof payload?.error === 'string' ? payload.error : `the server answered ${response.status}`
    throw new ApiError(response.status, reason)
  }
  return payload
}

// ------------------------------------------------------------------------------------------ helpers

function formatTime(value) {
  if (!value) return '–'
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString()
}

function showMessage(element, text, kind = 'info') {
  element.textContent = text
  element.dataset.kind = kind
}

function numberOrNull(input) {
  return input.value.trim() === '' ? null : Number(input.value)
}

function element(tag, text, className) {
  const node = document.createElement(tag)
  if (text !== undefined) node.textContent = text
  if (className) node.className = className
  return node
}

// ---------------------------------------------------------------------------- live-trading status

/** The spec's indicator table; the server's own `indicator` is used when it sends one. */
const INDICATORS = {
  green: ['Fully configured', 'Live trading on, orders placed automatically, broker credentials present.'],
  yellow: ['Partially configured', 'Live trading on, but orders are not placed automatically.'],
  red: ['Missing credentials', 'Live trading on, but no broker credentials are stored.'],
  gray: ['Inactive', 'Live trading is off.'],
}

export function indicatorOf(status) {
  if (Object.hasOwn(INDICATORS, status.indicator)) return status.indicator
  if (!status.liveTradingEnabled) return 'gray'
  if (!status.hasCredentials) return 'red'
  if (!status.autoPlaceOrdersEnabled) return 'yellow'
  return 'green'
}

function connectionText(connection) {
  if (!connection) return '–'
  // Connected but not heard from within the grace: its connector stopped reporting.
  const silent = connection.connected && connection.up === false
  const state = connection.connected ? (silent ? 'connected, broker silent' : 'connected') : String(connection.state ?? 'unknown').replaceAll('_', ' ')
  const text = connection.detail ? `${state} (${connection.detail})` : state
  const heard = connection.lastHeardAt ? ` · broker last heard ${formatTime(connection.lastHeardAt)}` : ''
  return `${connection.health === 'red' ? 'down too long: ' : ''}${text}${heard}`
}

let lastStatus = null

/** A red or amber indicator the broker is why (credentials stored): its words, not the table's. */
const BROKER_LABELS = { red: 'Broker connection failing', yellow: 'Needs attention' }

function renderStatus({ status }) {
  lastStatus = status
  const color = indicatorOf(status)
  const connection = status.brokerConnection
  const brokerTrouble = connection && (connection.state === 'error' || connection.state === 'connecting' || (connection.state === 'connected' && connection.health === 'red'))
  const brokerWhy = status.hasCredentials && status.indicatorReason && brokerTrouble && Object.hasOwn(BROKER_LABELS, color)
  const [label, detail] = brokerWhy ? [BROKER_LABELS[color], status.indicatorReason] : INDICATORS[color]
  $('indicator').dataset.color = color
  $('indicator-label').textContent = label
  $('indicator-detail').textContent = detail
  renderSwitches(status)
  $('status-trades').textContent = String(status.liveTradesCount)
  $('status-account').textContent = status.accountId ?? '–'
  $('status-credentials-updated').textContent = formatTime(status.credentialsUpdatedAt)
  $('status-connection').textContent = connectionText(status.brokerConnection)
  $('status-connection').dataset.health = status.brokerConnection?.health ?? ''
}

async function refreshStatus() {
  const status = await api('GET', '/api/live-trading-status')
  renderStatus(status)
  return status
}

// -------------------------------------------------------------------------------- settings panel

/**
 * The risk-engine form, area by area. The saved object starts from the loaded configuration, so a field
 * the form does not show is sent back unchanged and the save stays complete.
 */
const RISK_ENGINE_AREAS = [
  ['account', 'Account', [['startingBalance', 'Starting balance (USD)', { min: 1000, max: 10000000 }]]],
  ['trailingDrawdown', 'Trailing drawdown', [
    ['amount', 'Drawdown amount (USD)', { min: 100, max: 1000000 }],
    ['mode', 'Trails', { options: [['end_of_day', 'At end of day'], ['intraday_realized', 'Intraday, closed trades'], ['intraday_unrealized', 'Intraday, with open profit']] }],
    ['stopTrailingAtBalance', 'Stops trailing at balance (USD)', { min: 0, max: 20000000, nullable: 'never stops' }],
  ]],
  ['dailyLossLimit', 'Daily loss limit', [
    ['enabled', 'Daily loss limit enabled', { boolean: true }],
    ['amount', 'Daily loss limit (USD)', { min: 50, max: 1000000 }],
    ['type', 'When reached', { options: [['soft', 'Soft: no new entries'], ['hard', 'Hard: flatten and stop']] }],
  ]],
  ['limits', 'Limits', [
    ['maxRiskPerTradePercent', 'Maximum risk per trade (%)', { min: 0.01, max: 10 }],
    ['maxOpenTrades', 'Maximum open trades', { min: 1, max: 50, integer: true }],
    ['safetyBufferPercent', 'Safety buffer (%)', { min: 0, max: 50 }],
    ['maxContractsPerOrder', 'Contracts per order, at most (every mode)', { min: 1, max: 100, integer: true }],
    ['minStopTicks', 'Stop at least (ticks from the fill)', { min: 1, max: 1000, integer: true }],
    ['maxEntryDistanceTicks', "Market at most (ticks from the alert's entry)", { min: 1, max: 100000, integer: true }],
    ['marginPercent', 'Margin per contract (% of its value)', { min: 0.1, max: 100 }],
  ]],
  ['riskMode', 'Risk mode', [
    ['mode', 'Mode', { options: [['fixed_fraction', 'Fixed fraction'], ['anti_martingale_pyramiding', 'Anti-martingale with pyramiding'], ['fixed_contracts', 'Fixed contracts'], ['alert_quantity', "The alert's quantity"]] }],
    ['fixedContracts', 'Contracts (fixed contracts mode; most per alert in alert quantity mode)', { min: 1, max: 100, integer: true }],
  ]],
  ['consistencyRule', 'Consistency rule', [
    ['enabled', 'Consistency rule enabled', { boolean: true }],
    ['maxBestDayPercent', 'Best day at most (% of total profit)', { min: 10, max: 100 }],
  ]],
  ['payoutSecurity', 'Payout security', [
    ['enabled', 'Payout security enabled', { boolean: true }],
    ['minBalanceAboveStart', 'Minimum balance above start (USD)', { min: 0, max: 1000000 }],
  ]],
  ['verification', 'Verification', [
    ['phase', 'Phase', { options: [['evaluation', 'Evaluation'], ['funded', 'Funded']] }],
    ['profitTarget', 'Profit target (USD)', { min: 0, max: 1000000 }],
    ['minTradingDays', 'Minimum trading days', { min: 0, max: 365, integer: true }],
  ]],
  ['antiMartingale', 'Anti-martingale steps', [
    ['baseContracts', 'Base contracts', { min: 1, max: 100, integer: true }],
    ['maxContracts', 'Maximum contracts', { min: 1, max: 100, integer: true }],
    ['winsToStepUp', 'Wins to step up', { min: 1, max: 20, integer: true }],
    ['lossesToStepDown', 'Losses to step down', { min: 1, max: 20, integer: true }],
    ['stepContracts', 'Contracts per step', { min: 1, max: 20, integer: true }],
    ['pyramidLevels', 'Pyramid levels', { min: 0, max: 10, integer: true }],
  ]],
]

let loadedRiskEngineConfig = null

function riskInputId(area, field) {
  return `risk-engine-${area}-${field}`
}

/** Builds the risk-engine fieldsets for the areas present in the loaded configuration. */
function renderRiskEngineForm(config) {
  const container = $('risk-engine-fields')
  container.replaceChildren()
  for (const [area, legend, fields] of RISK_ENGINE_AREAS) {
    if (!config[area] || typeof config[area] !== 'object') continue
    const fieldset = element('fieldset')
    fieldset.append(element('legend', legend))
    const grid = element('div', undefined, 'grid')
    for (const [field, label, spec] of fields) {
      if (!Object.hasOwn(config[area], field)) continue
      const value = config[area][field]
      const id = riskInputId(area, field)
      if (spec.boolean) {
        const wrapper = element('label', undefined, 'check')
        const input = element('input')
        input.type = 'checkbox'
        input.id = id
        input.checked = value === true
        wrapper.append(input, ` ${label}`)
        fieldset.append(wrapper)
        continue
      }
      const wrapper = element('label', label)
      let input
      if (spec.options) {
        input = element('select')
        for (const [optionValue, optionLabel] of spec.options) {
          const option = element('option', optionLabel)
          option.value = optionValue
          input.append(option)
        }
        if (!spec.options.some(([optionValue]) => optionValue === value)) {
          const option = element('option', String(value))
          option.value = String(value)
          input.append(option)
        }
        input.value = String(value)
      } else {
        input = element('input')
        input.type = 'number'
        input.min = String(spec.min)
        input.max = String(spec.max)
        input.step = spec.integer ? '1' : 'any'
        input.required = !spec.nullable
        if (spec.nullable) input.placeholder = spec.nullable
        input.value = value === null || value === undefined ? '' : String(value)
      }
      input.id = id
      wrapper.append(input)
      grid.append(wrapper)
    }
    fieldset.append(grid)
    container.append(fieldset)
  }
}

/** The complete configuration to save: the loaded one with the form's values over it. */
function readRiskEngineConfig() {
  const config = structuredClone(loadedRiskEngineConfig)
  for (const [area, , fields] of RISK_ENGINE_AREAS) {
    for (const [field, , spec] of fields) {
      const input = $(riskInputId(area, field))
      if (!input) continue
      if (spec.boolean) config[area][field] = input.checked
      else if (spec.options) config[area][field] = input.value
      else config[area][field] = numberOrNull(input)
    }
  }
  return config
}

/** What the settings service holds, as last loaded or saved: restored if a later save step fails. */
const stored = { riskStrategy: null, liveTrading: null }

function renderSettings(settings) {
  const live = settings.live_trading?.value ?? { enabled: false, autoPlaceOrders: false }
  const risk = settings.risk_strategy?.value ?? {}
  stored.riskStrategy = settings.risk_strategy?.value ?? null
  stored.liveTrading = settings.live_trading?.value ?? null
  $('live-enabled').checked = live.enabled === true
  $('live-auto-place').checked = live.autoPlaceOrders === true
  $('risk-enabled').checked = risk.enabled === true
  $('risk-balance').value = risk.portfolioBalance ?? ''
  $('risk-percent').value = risk.riskPercent ?? ''
  $('risk-max-contracts').value = risk.maxContracts ?? ''
}

/**
 * The spec's client save sequence: exactly three calls, in this order, each only after the previous one
 * succeeded. The save counts only if all three succeed; then the live-trading status is fetched again.
 */
async function saveSettings(event) {
  event.preventDefault()
  const form = $('settings-form')
  const message = $('settings-message')
  if (!form.reportValidity()) return
  const riskEngineConfig = readRiskEngineConfig()
  const riskStrategy = {
    enabled: $('risk-enabled').checked,
    type: 'legacy',
    portfolioBalance: Number($('risk-balance').value),
    riskPercent: Number($('risk-percent').value),
    maxContracts: numberOrNull($('risk-max-contracts')),
  }
  const liveTrading = { enabled: $('live-enabled').checked, autoPlaceOrders: $('live-auto-place').checked }
  const steps = [
    ['risk-engine configuration', () => api('POST', '/api/risk-engine/config', riskEngineConfig)],
    ['risk strategy', () => api('POST', '/api/trading-settings', { settingKey: 'risk_strategy', settingValue: riskStrategy })],
    ['live-trading setting', () => api('POST', '/api/trading-settings', { settingKey: 'live_trading', settingValue: liveTrading })],
  ]
  // What each step overwrote, to put back if a later step fails (all or nothing; null: nothing stored).
  const undo = [
    () => api('POST', '/api/risk-engine/config', loadedRiskEngineConfig),
    () => (stored.riskStrategy === null ? null : api('POST', '/api/trading-settings', { settingKey: 'risk_strategy', settingValue: stored.riskStrategy })),
  ]

  $('save-settings').disabled = true
  showMessage(message, 'Saving…')
  try {
    for (const [index, [name, call]] of steps.entries()) {
      try {
        await call()
      } catch (error) {
        const restored = await restoreSaved(undo.slice(0, index))
        showMessage(message, `Settings not saved: the ${name} was refused (${error.message}).${restored}`, 'error')
        return
      }
    }
    loadedRiskEngineConfig = riskEngineConfig
    stored.riskStrategy = riskStrategy
    stored.liveTrading = liveTrading
    showMessage(message, 'Settings saved.', 'success')
    $('settings-form').dispatchEvent(new CustomEvent('signals:saved'))
    await refreshStatus().catch((error) => showMessage(message, `Settings saved, but the status could not be refreshed: ${error.message}`, 'error'))
  } finally {
    $('save-settings').disabled = false
  }
}

/** Puts back what the earlier steps of a failed save overwrote, latest first; says how that went. */
async function restoreSaved(undoSteps) {
  if (undoSteps.length === 0) return ''
  try {
    for (const step of [...undoSteps].reverse()) await step()
    return ' What was saved before is restored.'
  } catch (error) {
    return ` Restoring the earlier values failed too (${error.message}): reload the page and check them.`
  }
}

// ---------------------------------------------------------------------------- broker credentials

function renderCredentials(credentials) {
  const summary = $('credentials-summary')
  $('delete-credentials').hidden = credentials === null
  if (credentials === null) {
    summary.textContent = 'No broker credentials stored. Live trading needs them.'
    return
  }
  const broker = credentials.broker === 'tradovate' ? 'Tradovate' : 'Paper'
  const user = credentials.usernameMasked ? `, user ${credentials.usernameMasked}` : ''
  summary.textContent = `Stored: ${broker} (${credentials.environment}), account ${credentials.accountId}${user}, updated ${formatTime(credentials.updatedAt)}.`
  $('cred-broker').value = credentials.broker
  $('cred-environment').value = credentials.environment
  $('cred-account').value = credentials.accountId
  toggleTradovateFields()
}

function toggleTradovateFields() {
  const tradovate = $('cred-broker').value === 'tradovate'
  $('tradovate-fields').hidden = !tradovate
  for (const id of ['cred-app-id', 'cred-app-version', 'cred-cid', 'cred-sec']) $(id).required = tradovate
}

/** The body of DESIGN.md decision 13; optional fields are left out rather than sent empty. */
function readCredentials() {
  const body = {
    broker: $('cred-broker').value,
    environment: $('cred-environment').value,
    accountId: $('cred-account').value.trim(),
    username: $('cred-username').value.trim(),
    password: $('cred-password').value,
  }
  if (body.broker === 'tradovate') {
    const optional = { appId: 'cred-app-id', appVersion: 'cred-app-version', cid: 'cred-cid', sec: 'cred-sec', deviceId: 'cred-device' }
    for (const [key, id] of Object.entries(optional)) {
      const value = key === 'cid' || key === 'sec' ? $(id).value : $(id).value.trim()
      if (value !== '') body[key] = value
    }
  }
  return body
}

function clearSecrets() {
  for (const id of ['cred-password', 'cred-cid', 'cred-sec']) $(id).value = ''
}

async function saveCredentials(event) {
  event.preventDefault()
  const message = $('credentials-message')
  if (!$('credentials-form').reportValidity()) return
  $('save-credentials').disabled = true
  showMessage(message, 'Saving…')
  try {
    const { credentials, test } = await api('PUT', '/api/broker-credentials', readCredentials())
    clearSecrets()
    renderCredentials(credentials ?? null)
    // Saved whatever the broker said; its answer is shown at once (issue 25, item 4).
    if (test === undefined) showMessage(message, 'Credentials saved.', 'success')
    else if (test.ok) showMessage(message, `Credentials saved. ${test.detail}`, 'success')
    else showMessage(message, `Credentials saved, but the login failed: ${test.detail}`, 'error')
    await refreshStatus()
  } catch (error) {
    showMessage(message, `Credentials not saved: ${error.message}`, 'error')
  } finally {
    $('save-credentials').disabled = false
  }
}

async function deleteCredentials() {
  const message = $('credentials-message')
  if (!window.confirm('Remove the stored broker credentials? Live trading cannot run without them.')) return
  try {
    await api('DELETE', '/api/broker-credentials')
    clearSecrets()
    renderCredentials(null)
    showMessage(message, 'Credentials removed.', 'success')
    await refreshStatus()
  } catch (error) {
    showMessage(message, `Credentials not removed: ${error.message}`, 'error')
  }
}

// ---------------------------------------------------------------------------------- administration

const PAGE_SIZE = 20
// The list pages by cursor (newest first): `trail` holds the `before` cursor of every page after the first
// shown so far; `next` is the current answer's `nextCursor` (null on the last page).
const admin = { trail: [], next: null }

function adminQuery() {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE) })
  const before = admin.trail.at(-1)
  if (before !== undefined) query.set('before', before)
  const status = $('admin-status').value
  if (status !== 'all') query.set('status', status)
  const search = $('admin-search').value.trim()
  if (search !== '') query.set('search', search)
  return `/api/admin/users?${query}`
}

function renderUsers({ users, nextCursor }) {
  admin.next = nextCursor
  const body = $('admin-users')
  body.replaceChildren()
  if (users.length === 0) {
    const row = element('tr')
    const cell = element('td', 'No users match.', 'muted')
    cell.colSpan = 5
    row.append(cell)
    body.append(row)
  }
  for (const user of users) {
    const row = element('tr')
    row.dataset.userId = user.userId
    const action = element('td')
    const actionButton = (label, className, failure, run) => {
      const button = element('button', label, `button small ${className}`)
      button.type = 'button'
      button.addEventListener('click', () => void adminAction(button, failure, run))
      action.append(button)
    }
    if (!user.approved && !user.banned) actionButton('Approve', 'primary', `${user.email} not approved`, () => approveUser(user))
    // Administrators (ADMIN_EMAIL) cannot be revoked or banned here: the admin service refuses both.
    if (user.approved && !user.banned && user.role !== 'admin') actionButton('Revoke', '', `${user.email} not revoked`, () => revokeUser(user))
    if (!user.banned && user.role !== 'admin') actionButton('Ban', 'danger', `${user.email} not banned`, () => banUser(user))
    if (user.banned) actionButton('Lift ban', '', `Ban of ${user.email} not lifted`, () => liftBan(user))
    row.append(
      element('td', user.email ?? ''),
      element('td', user.name ?? ''),
      element('td', formatTime(user.createdAt)),
      element('td', user.banned ? 'Banned' : user.approved ? 'Approved' : 'Awaiting approval'),
      action,
    )
    body.append(row)
  }
  $('admin-page').textContent = `Page ${admin.trail.length + 1}`
  $('admin-previous').disabled = admin.trail.length === 0
  $('admin-next').disabled = nextCursor === null
}

/** Reloads the list; true when it could. */
async function loadUsers() {
  try {
    renderUsers(await api('GET', adminQuery()))
    showMessage($('admin-message'), '')
    return true
  } catch (error) {
    showMessage($('admin-message'), `Users could not be loaded: ${error.message}`, 'error')
    return false
  }
}

/**
 * Runs one administrator action from its button: the button is disabled meanwhile, a refusal is shown
 * after `failure`, and on success the list is reloaded. `run` answers the success message, or null when
 * cancelled.
 */
async function adminAction(button, failure, run) {
  button.disabled = true
  let done
  try {
    done = await run()
  } catch (error) {
    button.disabled = false
    showMessage($('admin-message'), `${failure}: ${error.message}`, 'error')
    return
  }
  if (done === null) {
    button.disabled = false
    return
  }
  const reloaded = await loadUsers()
  if (reloaded) showMessage($('admin-message'), done, 'success')
  else showMessage($('admin-message'), `${done} The list could not be refreshed.`, 'error')
}

async function approveUser(user) {
  await api('POST', `/api/admin/users/${encodeURIComponent(user.userId)}/approve`)
  return `${user.email} approved.`
}

async function revokeUser(user) {
  if (!window.confirm(`Revoke the approval of ${user.email}? They wait for approval again and their live trading is switched off.`)) return null
  await api('POST', `/api/admin/users/${encodeURIComponent(user.userId)}/revoke`)
  return `${user.email} revoked: pending approval again.`
}

async function banUser(user) {
  const reason = window.prompt(`Ban ${user.email}? Their sessions end at once. Reason (shown to them at sign-in):`, '')
  if (reason === null) return null
  await api('POST', '/api/admin/bans', { email: user.email, reason: reason.trim() === '' ? null : reason.trim() })
  return `${user.email} banned.`
}

async function liftBan(user) {
  await api('DELETE', `/api/admin/bans/${encodeURIComponent(user.email)}`)
  return `Ban of ${user.email} lifted.`
}

/** Administrators see the section (the admin service refuses everyone else anyway). */
async function openAdministration(me) {
  if (me.role !== 'admin') return
  $('console-link').hidden = false
  const first = await api('GET', adminQuery())
  $('admin').hidden = false
  renderUsers(first)
  $('admin-filter').addEventListener('submit', (event) => {
    event.preventDefault()
    admin.trail = []
    void loadUsers()
  })
  $('admin-status').addEventListener('change', () => {
    admin.trail = []
    void loadUsers()
  })
  // A page that fails to load leaves the trail where it was, so the page shown and its number still agree.
  $('admin-previous').addEventListener('click', async () => {
    const left = admin.trail.pop()
    if (!(await loadUsers()) && left !== undefined) admin.trail.push(left)
  })
  $('admin-next').addEventListener('click', async () => {
    if (admin.next === null) return
    admin.trail.push(admin.next)
    if (!(await loadUsers())) admin.trail.pop()
  })
}

// ------------------------------------------------------------------------------------------ start

function showPageError(text) {
  const box = $('page-error')
  box.textContent = box.hidden ? text : `${box.textContent} ${text}`
  box.hidden = false
}

async function loadSettingsPanel() {
  const [settings, riskEngine, status] = await Promise.all([
    api('GET', '/api/trading-settings'),
    api('GET', '/api/risk-engine/config'),
    api('GET', '/api/live-trading-status'),
  ])
  renderSettings(settings.settings)
  loadedRiskEngineConfig = riskEngine.config
  renderRiskEngineForm(riskEngine.config)
  renderStatus(status)
  $('save-settings').disabled = false
}

/** Who is signed in, from the auth service; an unreadable profile costs the page nothing but the name. */
async function loadMe() {
  const { user } = await api('GET', '/auth/me')
  $('who-name').textContent = user.name ? `${user.name} (${user.email})` : user.email
  if (user.picture) {
    const picture = $('who-picture')
    picture.src = user.picture
    picture.hidden = false
    picture.addEventListener('error', () => (picture.hidden = true), { once: true })
  }
  $('who').hidden = false
  return user
}

async function loadProfile() {
  const me = await loadMe()
  await openAdministration(me).catch((error) => showPageError(`Could not load the user list: ${error.message}.`))
}

async function loadCredentials() {
  const { credentials } = await api('GET', '/api/broker-credentials')
  renderCredentials(credentials ?? null)
}

/** 403 answers after which the page has already been sent elsewhere. */
const LEAVING = new Set(['Account pending approval', 'Account banned'])

/** Each part loads on its own: one service being down leaves the others usable. */
async function start() {
  $('settings-form').addEventListener('submit', (event) => void saveSettings(event))
  $('credentials-form').addEventListener('submit', (event) => void saveCredentials(event))
  $('delete-credentials').addEventListener('click', () => void deleteCredentials())
  $('cred-broker').addEventListener('change', toggleTradovateFields)
  setupCockpit({
    api,
    formatTime,
    current: () => lastStatus,
    refresh: refreshStatus,
    // The switches saved a new live-trading value: the settings form shows it too, and a later save keeps it.
    settingsChanged(liveTrading) {
      stored.liveTrading = liveTrading
      $('live-enabled').checked = liveTrading.enabled
      $('live-auto-place').checked = liveTrading.autoPlaceOrders
    },
  })
  // The live socket (activity.js) says when the status changed elsewhere: another tab, the broker feed.
  document.addEventListener('signals:status-changed', () => void refreshStatus().catch(() => undefined))

  const parts = [
    ['your settings', loadSettingsPanel, () => ($('indicator-label').textContent = 'Status unavailable')],
    ['your broker credentials', loadCredentials, () => ($('credentials-summary').textContent = 'Stored credentials could not be read.')],
    ['your profile', loadProfile, () => {}],
  ]
  await Promise.all(
    parts.map(([what, load, unavailable]) =>
      load().catch((error) => {
        // A redirect to sign-in or to the pending page is already under way.
        if (error instanceof ApiError && (error.status === 401 || (error.status === 403 && LEAVING.has(error.message)))) return
        unavailable()
        showPageError(`Could not load ${what}: ${error.message}.`)
      }),
    ),
  )
}

void start()
