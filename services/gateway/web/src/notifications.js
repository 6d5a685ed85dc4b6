// The "Notifications" card: the trader's channels (e-mail, Telegram, Discord, signed webhook), what each is
// told about, how its last send went, and a "Send a test" button (docs/decisions/notifications.md).
// Secrets are write-only: the page never receives one. Every server value goes in through textContent.

import { EVENTS, bodyOf, describe } from './notification-channels.ts'

const $ = (id) => document.getElementById(id)

async function call(method, path, body) {
  let response
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch {
    throw new Error('The server cannot be reached. Check your connection and try again.')
  }
  const payload = await response.json().catch(() => null)
  if (!response.ok || payload === null || payload.success === false) {
    throw new Error(typeof payload?.error === 'string' ? payload.error : `the server answered ${response.status}`)
  }
  return payload
}

function say(text, kind = 'info') {
  const message = $('notify-message')
  message.textContent = text
  message.dataset.kind = kind
}

function button(label, onClick, kind = '') {
  const element = document.createElement('button')
  element.type = 'button'
  element.className = `button ${kind}`.trim()
  element.textContent = label
  element.addEventListener('click', () => void onClick().catch((error) => say(error.message, 'error')))
  return element
}

async function refresh() {
  const { channels } = await call('GET', '/api/notifications/channels')
  const list = $('notify-channels')
  list.replaceChildren()
  $('notify-empty').hidden = channels.length > 0
  for (const channel of channels) {
    const item = document.createElement('li')
    const title = document.createElement('strong')
    title.textContent = channel.name
    const detail = document.createElement('p')
    detail.className = 'muted small'
    detail.textContent = `${describe(channel)} — ${channel.events.map((event) => EVENTS.find(([id]) => id === event)?.[1] ?? event).join(', ') || 'no events'}`
    const actions = document.createElement('div')
    actions.className = 'form-actions'
    actions.append(
      button('Send a test', async () => {
        const result = await call('POST', `/api/notifications/channels/${channel.id}/test`)
        say(result.sent ? `Test sent on ${channel.name}.` : `Test not sent: ${result.error}`, result.sent ? 'success' : 'error')
        await refresh()
      }),
      button(channel.enabled ? 'Turn off' : 'Turn on', async () => {
        await call('PUT', `/api/notifications/channels/${channel.id}`, bodyOf(channel, { enabled: !channel.enabled }))
        await refresh()
      }),
      button('Delete', async () => {
        await call('DELETE', `/api/notifications/channels/${channel.id}`)
        await refresh()
      }, 'danger'),
    )
    item.append(title, detail, actions)
    list.append(item)
  }
}

function showKindFields() {
  const kind = $('notify-kind').value
  for (const fields of document.querySelectorAll('[data-notify-kind]')) fields.hidden = fields.dataset.notifyKind !== kind
}

function newChannel() {
  const kind = $('notify-kind').value
  const events = [...document.querySelectorAll('#notify-events input:checked')].map((input) => input.value)
  const base = { kind, name: $('notify-name').value.trim(), events }
  const text = (id) => $(id).value.trim() || undefined
  switch (kind) {
    case 'email':
      return { ...base, smtpHost: text('notify-smtp-host'), smtpPort: Number($('notify-smtp-port').value), smtpTls: $('notify-smtp-tls').checked, smtpUsername: text('notify-smtp-user'), smtpPassword: text('notify-smtp-password'), from: text('notify-from'), to: text('notify-to') }
    case 'telegram':
      return { ...base, chatId: text('notify-chat'), botToken: text('notify-bot-token') }
    case 'discord':
      return { ...base, webhookUrl: text('notify-discord-url') }
    default:
      return { ...base, url: text('notify-url'), signingSecret: text('notify-signing-secret') }
  }
}

function start() {
  const boxes = $('notify-events')
  for (const [id, label] of EVENTS) {
    const wrapper = document.createElement('label')
    const input = document.createElement('input')
    input.type = 'checkbox'
    input.value = id
    input.checked = id !== 'fill'
    wrapper.append(input, ` ${label}`)
    boxes.append(wrapper)
  }
  $('notify-kind').addEventListener('change', showKindFields)
  showKindFields()
  $('notify-form').addEventListener('submit', (event) => {
    event.preventDefault()
    void call('POST', '/api/notifications/channels', newChannel())
      .then(async () => {
        $('notify-form').reset()
        showKindFields()
        say('Channel added. Send a test to check it.', 'success')
        await refresh()
      })
      .catch((error) => say(error.message, 'error'))
  })
  void refresh().catch((error) => say(error.message, 'error'))
}

if ($('notify-form')) start()
