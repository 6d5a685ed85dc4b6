import { postJson, type OutgoingMessage, type SendOutcome, type SenderEnvironment } from './outgoing.ts'

/** Discord execute-webhook: POST <webhook URL> {content} (2000 characters at most); 204 or 200 when taken. */
export function sendDiscord(env: SenderEnvironment, webhookUrl: string, message: OutgoingMessage): Promise<SendOutcome> {
  const body = JSON.stringify({ content: `**${message.title}**\n${message.text}`.slice(0, 2000), allowed_mentions: { parse: [] } })
  return postJson('Discord', webhookUrl, body, {}, env.timeoutMs, (status, text) => {
    if (status === 204 || status === 200) return null
    return text.slice(0, 200) || 'refused'
  })
}
