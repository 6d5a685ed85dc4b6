import type { IncomingMessage, ServerResponse } from 'node:http'
import type Provider from 'oidc-provider'
import type { InteractionDetails } from 'oidc-provider'
import { subjectFor, type AccountStore, type DevProfile } from './accounts.ts'
import { CONTENT_SECURITY_POLICY, errorPage, signInPage } from './pages.ts'

const FORM_LIMIT_BYTES = 8 * 1024
const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/

/** The routes of the sign-in page; everything else is oidc-provider's. */
export const INTERACTION_ROUTE = /^\/interaction\/([A-Za-z0-9_-]+)(?:\/(login|abort))?$/

class BadForm extends Error {}

export function sendHtml(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
  })
  res.end(body)
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = req.headers['content-type'] ?? ''
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) throw new BadForm('expected a form post')
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > FORM_LIMIT_BYTES) throw new BadForm('the form is too large')
    chunks.push(chunk)
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
}

/** Reads and checks the sign-in form; a problem comes back as a message for the re-rendered form. */
function profileFromForm(form: URLSearchParams): { profile: DevProfile } | { error: string } {
  const email = (form.get('email') ?? '').trim()
  const name = (form.get('name') ?? '').trim()
  if (email === '') return { error: 'Type an e-mail address.' }
  if (email.length > 254 || !EMAIL_PATTERN.test(email)) return { error: `"${email.slice(0, 80)}" is not an e-mail address.` }
  if (name.length > 255) return { error: 'The display name is longer than 255 characters.' }
  return {
    profile: {
      email,
      // A display name like Google's: given, or made from the e-mail's local part.
      name: name === '' ? (email.split('@')[0] ?? email) : name,
      emailVerified: form.get('email_verified') === 'true',
    },
  }
}

function clientName(details: InteractionDetails): string {
  return typeof details.params.client_id === 'string' ? details.params.client_id : 'an application'
}

/** Handles /interaction/:uid (show the form), /interaction/:uid/login and /interaction/:uid/abort. */
export async function handleInteraction(
  provider: Provider,
  accounts: AccountStore,
  req: IncomingMessage,
  res: ServerResponse,
  uid: string,
  action: string | undefined,
): Promise<void> {
  let details: InteractionDetails
  try {
    details = await provider.interactionDetails(req, res)
  } catch {
    sendHtml(res, 400, errorPage('Sign-in expired', { error: 'This sign-in has expired or was already used. Start again from the application.' }))
    return
  }
  if (details.uid !== uid) {
    sendHtml(res, 400, errorPage('Sign-in mismatch', { error: 'This page does not belong to the sign-in in progress.' }))
    return
  }

  if (action === undefined) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed(res, 'GET')
    if (details.prompt.name === 'consent') return grantConsent(provider, req, res, details)
    const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined
    sendHtml(res, 200, signInPage({ uid, clientName: clientName(details), ...(hint === undefined ? {} : { email: hint }) }))
    return
  }

  if (req.method !== 'POST') return methodNotAllowed(res, 'POST')
  if (action === 'abort') {
    await provider.interactionFinished(req, res, {
      error: 'access_denied',
      error_description: 'The user cancelled the sign-in',
    })
    return
  }

  let form: URLSearchParams
  try {
    form = await readForm(req)
  } catch (error) {
    if (!(error instanceof BadForm)) throw error
    sendHtml(res, 400, errorPage('Bad request', { error: error.message }))
    return
  }
  const read = profileFromForm(form)
  if ('error' in read) {
    sendHtml(
      res,
      400,
      signInPage({
        uid,
        clientName: clientName(details),
        email: form.get('email') ?? '',
        name: form.get('name') ?? '',
        emailVerified: form.get('email_verified') === 'true',
        error: read.error,
      }),
    )
    return
  }
  await signIn(provider, accounts, req, res, details, read.profile)
}

/** Signs in and consents at once: the configured clients are first-party, nobody is asked twice. */
async function signIn(
  provider: Provider,
  accounts: AccountStore,
  req: IncomingMessage,
  res: ServerResponse,
  details: InteractionDetails,
  profile: DevProfile,
): Promise<void> {
  const sub = subjectFor(profile.email)
  const grant = new provider.Grant({ clientId: String(details.params.client_id), accountId: sub })
  grant.addOIDCScope(typeof details.params.scope === 'string' ? details.params.scope : 'openid')
  const grantId = await grant.save()
  accounts.remember(profile, grantId)
  await provider.interactionFinished(req, res, { login: { accountId: sub }, consent: { grantId } })
}

/** A consent prompt can still come up (say, a new scope on a known session): grant it, never ask. */
async function grantConsent(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  details: InteractionDetails,
): Promise<void> {
  const accountId = details.session?.accountId
  if (accountId === undefined) {
    sendHtml(res, 400, errorPage('Sign-in error', { error: 'No signed-in account to consent for.' }))
    return
  }
  const grant = details.grantId === undefined ? undefined : await provider.Grant.find(details.grantId)
  const consented = grant ?? new provider.Grant({ clientId: String(details.params.client_id), accountId })
  const missingScopes = details.prompt.details.missingOIDCScope
  if (Array.isArray(missingScopes)) consented.addOIDCScope(missingScopes.join(' '))
  const missingClaims = details.prompt.details.missingOIDCClaims
  if (Array.isArray(missingClaims)) consented.addOIDCClaims(missingClaims as string[])
  const grantId = await consented.save()
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true })
}

function methodNotAllowed(res: ServerResponse, allowed: string): void {
  res.setHeader('allow', allowed)
  sendHtml(res, 405, errorPage('Method not allowed', { error: `Use ${allowed}.` }))
}
