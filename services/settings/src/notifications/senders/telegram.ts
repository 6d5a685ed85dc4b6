import { failed, postJson, type OutgoingMessage, type SendOutcome, type SenderEnvironment } from './outgoing.ts'

/** Bot API sendMessage: POST <api>/bot<token>/sendMessage {chat_id, text}; answers {ok, description}. */
export function sendTelegram(env: SenderEnvironment, chatId: string, botToken: string, message: OutgoingMessage): Promise<SendOutcome> {
  if (!/^[0-9]+:[A-Za-z0-9_-]+$/.test(botToken)) return Promise.resolve(failed('the bot token is not of the form 123456:ABC...'))
  const url = `${env.telegramApiUrl.replace(/\/+$/, '')}/bot${botToken}/sendMessage`
  const body = JSON.stringify({ chat_id: chatId, text: `${message.title}\n\n${message.text}`.slice(0, 4096), disable_web_page_preview: true })
  return postJson('Telegram', url, body, {}, env.timeoutMs, (status, text) => {
    const answer = parse(text)
    if (status === 200 && answer?.ok === true) return null
    return typeof answer?.description === 'string' ? answer.description.slice(0, 200) : 'not ok'
  })
}

function parse(text: string): { ok?: unknown; description?: unknown } | null {
  try {
    return JSON.parse(text) as { ok?: unknown; description?: unknown }
  } catch {
    return null
  }
}
