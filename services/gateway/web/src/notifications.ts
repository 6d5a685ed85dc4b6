// The "Notifications" card: the trader's channels (e-mail, Telegram, Discord, signed webhook), what each is
// told about, how its last send went, and a "Send a test" button (docs/decisions/notifications.md).
// Secrets are write-only: the page never receives one. Every server value goes in through textContent.

import { EVENTS, bodyOf, describe } from './notification-channels.ts'

import { api } from './api.ts'
import { byId } from './dom.ts'
import type { ChannelBody } from '../../../settings/src/schemas/notification-channels.ts'

const failed = (error: Error) => say(error.message, 'error')

function say(text: string, kind = 'info'): void {
  const message = byId('notify-message')
  message.textContent = text
  message.dataset.kind = kind
}

function button(label: string, onClick: () => Promise<void>, kind = ''): HTMLElement {
  const element = document.createElement('button')
  element.type = 'button'
  element.className = `button ${kind}`.trim()
  element.textContent = label
  element.addEventListener('click', () => void onClick().catch(failed))
  return element
}

async function refresh(): Promise<void> {
  const { channels } = await api('GET /api/notifications/channels')
  const list = byId('notify-channels')
  list.replaceChildren()
  byId('notify-empty').hidden = channels.length > 0
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
        const result = await api('POST /api/notifications/channels/:id/test', { params: { id: channel.id } })
        say(result.sent ? `Test sent on ${channel.name}.` : `Test not sent: ${result.error}`, result.sent ? 'success' : 'error')
        await refresh()
      }),
      button(channel.enabled ? 'Turn off' : 'Turn on', async () => {
        await api('PUT /api/notifications/channels/:id', { params: { id: channel.id }, body: bodyOf(channel, { enabled: !channel.enabled }) as ChannelBody })
        await refresh()
      }),
      button('Delete', async () => {
        await api('DELETE /api/notifications/channels/:id', { params: { id: channel.id } })
        await refresh()
      }, 'danger'),
    )
    item.append(title, detail, actions)
    list.append(item)
  }
}

function showKindFields(): void {
  const kind = byId<HTMLSelectElement>('notify-kind').value
  for (const fields of document.querySelectorAll<HTMLElement>('[data-notify-kind]')) fields.hidden = fields.dataset.notifyKind !== kind
}

function newChannel(): ChannelBody {
  const kind = byId<HTMLSelectElement>('notify-kind').value
  const events = [...document.querySelectorAll<HTMLInputElement>('#notify-events input:checked')].map((input) => input.value)
  const base = { kind, name: byId<HTMLInputElement>('notify-name').value.trim(), events }
  const text = (id: string) => byId<HTMLInputElement>(id).value.trim() || undefined
  // The settings service validates the body and says what is wrong with it (the form sends what was typed).
  switch (kind) {
    case 'email':
      return { ...base, smtpHost: text('notify-smtp-host'), smtpPort: Number(byId<HTMLInputElement>('notify-smtp-port').value), smtpTls: byId<HTMLInputElement>('notify-smtp-tls').checked, smtpUsername: text('notify-smtp-user'), smtpPassword: text('notify-smtp-password'), from: text('notify-from'), to: text('notify-to') } as ChannelBody
    case 'telegram':
      return { ...base, chatId: text('notify-chat'), botToken: text('notify-bot-token') } as ChannelBody
    case 'discord':
      return { ...base, webhookUrl: text('notify-discord-url') } as ChannelBody
    default:
      return { ...base, url: text('notify-url'), signingSecret: text('notify-signing-secret') } as ChannelBody
  }
}

function start(): void {
  const boxes = byId('notify-events')
  for (const [id, label] of EVENTS) {
    const wrapper = document.createElement('label')
    const input = document.createElement('input')
    input.type = 'checkbox'
    input.value = id
    input.checked = id !== 'fill'
    wrapper.append(input, ` ${label}`)
    boxes.append(wrapper)
  }
  byId('notify-kind').addEventListener('change', showKindFields)
  showKindFields()
  byId('notify-form').addEventListener('submit', (event) => {
    event.preventDefault()
    void api('POST /api/notifications/channels', { body: newChannel() })
      .then(async () => {
        byId<HTMLFormElement>('notify-form').reset()
        showKindFields()
        say('Channel added. Send a test to check it.', 'success')
        await refresh()
      })
      .catch(failed)
  })
  void refresh().catch(failed)
}

if (document.getElementById('notify-form') !== null) start()
