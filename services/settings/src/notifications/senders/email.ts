import { failed, type OutgoingMessage, type SendOutcome, type SenderEnvironment } from './outgoing.ts'

export interface EmailSettings {
  smtpHost: string
  smtpPort: number
  smtpTls: boolean
  smtpUsername: string | null
  from: string
  to: string
}

/**
 * One message over SMTP (STARTTLS when offered, unless TLS from the start); one connection per send.
 * Nodemailer is imported at the first send: most installations never send email, and the build puts it in a
 * chunk of its own (about 250 KB of code) that an idle service then never reads (docs/decisions/memory.md).
 */
export async function sendEmail(env: SenderEnvironment, settings: EmailSettings, password: string | null, message: OutgoingMessage): Promise<SendOutcome> {
  const { default: nodemailer } = await import('nodemailer')
  const transport = nodemailer.createTransport({
    host: settings.smtpHost,
    port: settings.smtpPort,
    secure: settings.smtpTls,
    auth: settings.smtpUsername === null ? undefined : { user: settings.smtpUsername, pass: password ?? '' },
    connectionTimeout: env.timeoutMs,
    greetingTimeout: env.timeoutMs,
    socketTimeout: env.timeoutMs,
    logger: false,
  })
  try {
    await transport.sendMail({ from: settings.from, to: settings.to, subject: message.title, text: message.text })
    return { ok: true }
  } catch (error) {
    return failed(`The SMTP server refused or could not be reached (${smtpProblem(error)})`)
  } finally {
    transport.close()
  }
}

/** Nodemailer's code and the server's answer, never the credentials (they are not in either). */
function smtpProblem(error: unknown): string {
  const { code, responseCode, response } = (error ?? {}) as { code?: unknown; responseCode?: unknown; response?: unknown }
  const parts = [typeof code === 'string' ? code : null, typeof responseCode === 'number' ? String(responseCode) : null, typeof response === 'string' ? response.slice(0, 200) : null]
  return parts.filter((part) => part !== null).join(' ') || 'unknown error'
}
