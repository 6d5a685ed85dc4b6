// The "Setting up the alert" card: the webhook URL, the user's user_id, and a TradingView message in each
// accepted form, filled in for this user. The webhook secret is never shown here (docs/decisions/web.md).

const $ = (id) => document.getElementById(id)

const SECRET_PLACEHOLDER = 'YOUR_WEBHOOK_SECRET'

function fields(userId) {
  return {
    action: '{{strategy.order.action}}',
    symbol: '{{ticker}}',
    entryPrice: '{{close}}',
    sl: '{{plot("Stop")}}',
    tp: '{{plot("Target")}}',
    user_id: userId,
    secret: SECRET_PLACEHOLDER,
  }
}

/** The four accepted forms (docs/alert-formats.md), as a trader pastes them into TradingView. */
export function alertTemplates(userId, webhookUrl) {
  const values = fields(userId)
  const json = JSON.stringify(values, null, 2)
  const text = Object.entries(values).map(([key, value]) => `${key}: ${value}`).join('\n')
  const query = new URLSearchParams({ message: JSON.stringify(values) })
  return [
    ['setup-json', 'JSON (the alert message is the body)', json],
    ['setup-message', 'JSON inside "message"', JSON.stringify({ message: JSON.stringify(values) }, null, 2)],
    ['setup-query', 'In the webhook URL (?message=)', `${webhookUrl}?${query}`],
    ['setup-text', 'Plain text, one "label: value" per line', text],
  ]
}

async function copy(button, text) {
  try {
    await navigator.clipboard.writeText(text)
    button.textContent = 'Copied'
  } catch {
    button.textContent = 'Select and copy by hand'
  }
  setTimeout(() => (button.textContent = 'Copy'), 2000)
}

function templateBlock([id, title, text]) {
  const block = document.createElement('div')
  block.className = 'template'
  const heading = document.createElement('h3')
  heading.id = `${id}-title`
  heading.textContent = title
  const pre = document.createElement('pre')
  pre.id = id
  pre.tabIndex = 0
  pre.setAttribute('aria-labelledby', heading.id)
  pre.textContent = text
  const button = document.createElement('button')
  button.type = 'button'
  button.className = 'button small'
  button.textContent = 'Copy'
  button.setAttribute('aria-describedby', heading.id)
  button.addEventListener('click', () => void copy(button, text))
  block.append(heading, pre, button)
  return block
}

export function renderSetup(user) {
  const webhookUrl = new URL('/webhook/alert', window.location.origin).href
  $('setup-webhook').textContent = webhookUrl
  $('setup-user-id').textContent = user.userId
  $('setup-templates').replaceChildren(...alertTemplates(user.userId, webhookUrl).map(templateBlock))
  for (const [button, source] of [['copy-webhook', 'setup-webhook'], ['copy-user-id', 'setup-user-id']]) {
    $(button).addEventListener('click', () => void copy($(button), $(source).textContent))
  }
}
