import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { BusUnavailableError } from '@signals/bus'
import { listOf } from '@signals/config'
import { contract, ErrorBody, NormalizedAlertV1, Subjects, type SignalSourceKey } from '@signals/contracts'
import type { Config } from '../config.ts'
import { refuseStaleAlert } from '../intake/alert-age.ts'
import { sourceTextOf } from '../intake/source.ts'
import { userNamedInBrokenJson } from '../intake/user-in-broken-json.ts'
import { extractFields, type Fields } from '../parsing/fields.ts'
import { RepeatedNames } from '../parsing/label-lines.ts'
import { textValue } from '../parsing/values.ts'
import { normalizeAlert } from '../parsing/normalize.ts'
import { parseAlert, UnparseableAlertError } from '../parsing/parse-alert.ts'
import { Refusal } from '../refusal.ts'
import { SourceKeysUnavailableError, sourceKeysOf } from '../sources/source-keys.ts'
import { WebhookAccepted, type WebhookParams, type WebhookQuery } from '../schemas/webhook.ts'
import { SecretRedactor, secretMatcher } from '../webhook-secret.ts'

/** Well under TradingView's 3 s, so a bus that does not answer turns into a 503 within 2 s. */
const PUBLISH_TIMEOUT_MS = 1_500

const SUBJECT_OF_KIND = { entry: Subjects.alertEntry, result: Subjects.alertResult, test: Subjects.alertTest } as const
const AlertContract = contract(NormalizedAlertV1)

/** Query parameters that are never alert fields. */
const NOT_FIELDS = new Set(['message', 'secret', 'passphrase'])

type WebhookRequest = FastifyRequest<{ Querystring: WebhookQuery; Params: WebhookParams }>

/**
 * `POST /webhook/alert` (and `/webhook/alert/<secret>` when WEBHOOK_SECRET is set): capture, parse,
 * normalize, route, publish; 200 only once JetStream has the alert. The intake log, client address and
 * rate limit are the plugins registered beside it (app.ts).
 */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ config: Config }> = async (app, options) => {
  const { config } = options
  const premiumIndicators = new Set(listOf(config.PREMIUM_INDICATORS).map((name) => name.toLowerCase()))
  const webhookSecret = config.WEBHOOK_SECRET
  const matchesSecret = webhookSecret === undefined ? null : secretMatcher(webhookSecret)
  const maxAgeMs = config.ALERT_MAX_AGE_SECONDS === undefined ? null : config.ALERT_MAX_AGE_SECONDS * 1000
  // No querystring/params schema: any parameter may carry an alert field, read as sent.
  const route = { schema: { response: { 200: WebhookAccepted, '4xx': ErrorBody, '5xx': ErrorBody } } }

  const sourceKeys = sourceKeysOf(app.bus, { timeoutMs: PUBLISH_TIMEOUT_MS })

  app.post<{ Querystring: WebhookQuery; Params: WebhookParams }>('/webhook/alert', route, (request) => acceptAlert(request, undefined))
  if (matchesSecret) app.post<{ Querystring: WebhookQuery; Params: WebhookParams }>('/webhook/alert/:secret', route, (request) => acceptAlert(request, undefined))
  // A signal source's URL (issue 22): the token authenticates; WEBHOOK_SECRET is the spec route's alone.
  app.post<{ Querystring: WebhookQuery; Params: WebhookParams }>('/webhook/s/:token', route, async (request) => acceptAlert(request, await sourceOf(request.params.token ?? '')))

  async function sourceOf(token: string): Promise<SignalSourceKey> {
    let source: SignalSourceKey | null
    try {
      source = await sourceKeys.lookup(token)
    } catch (error) {
      if (error instanceof SourceKeysUnavailableError) throw new Refusal(503, 'unavailable', 'Signal sources unavailable, please retry')
      throw error
    }
    if (source === null) throw new Refusal(401, 'unauthorized', 'Unknown or revoked signal source URL: copy the current URL from your signal sources, or make a new one')
    return source
  }

  /** `source`: the signal source the URL names; undefined on the spec's route. */
  async function acceptAlert(request: WebhookRequest, source: SignalSourceKey | undefined) {
    const intake = request.intake
    const { text } = sourceTextOf(request)
    const query = request.query
    const parsed = parseSourceText(request, text)
    const queryFields = queryFieldsOf(query)
    // Who the alert names, for the intake log (a trader sees the refusals of alerts naming them).
    // Broken JSON names its user only as text: read for the log, so the trader sees where it broke.
    const named = textValue(parsed.fields.userId ?? queryFields.userId) ?? (parsed.jsonError === undefined ? undefined : userNamedInBrokenJson(text))
    intake.userId = named?.slice(0, 255) ?? undefined

    if (source === undefined && matchesSecret && webhookSecret !== undefined) {
      const sent = [request.params.secret, query.secret, query.passphrase, ...parsed.secrets]
        .flatMap((value) => (Array.isArray(value) ? value : [value]))
        .filter((value): value is string => typeof value === 'string' && value !== '')
      intake.redactor = new SecretRedactor([webhookSecret, ...sent])
      if (!sent.some(matchesSecret)) throw new Refusal(401, 'unauthorized', 'Webhook secret missing or wrong')
    }
    intake.authenticated = true
    // A trader's source: its owner sees its intake, whoever the payload names.
    if (source?.ownerUserId) intake.userId = source.ownerUserId

    refuseStaleAlert({ time: parsed.fields.time ?? queryFields.time, maxLag: parsed.fields.maxLag ?? queryFields.maxLag }, intake.receivedAt, maxAgeMs)

    const alert = normalizeAlert(parsed, queryFields, { premiumIndicators, receivedAt: intake.receivedAt, sourceText: text, redactor: intake.redactor, ...(source === undefined ? {} : { source }) })
    const alertId = alert.alertId
    intake.alertId = alertId
    intake.kind = alert.kind

    let duplicate: boolean
    try {
      const ack = await app.bus.publish(SUBJECT_OF_KIND[alert.kind], AlertContract, alert, { messageId: alertId, timeoutMs: PUBLISH_TIMEOUT_MS })
      duplicate = ack.duplicate
    } catch (error) {
      if (error instanceof BusUnavailableError) throw new Refusal(503, 'unavailable', 'Alert bus unavailable, please retry')
      throw error
    }
    intake.outcome = duplicate ? 'duplicate' : 'accepted'
    return { success: true as const, alertId, kind: alert.kind, duplicate }
  }
}

function parseSourceText(request: FastifyRequest, text: string) {
  try {
    const form = request.intake.sourceText?.source === 'body' && request.headers['content-type'] === 'application/x-www-form-urlencoded'
    return parseAlert(text, { form })
  } catch (error) {
    if (error instanceof UnparseableAlertError) throw new Refusal(400, 'invalid', error.message)
    throw error
  }
}

/** Alert fields sent as query parameters, besides the alert text and the secret. */
function queryFieldsOf(query: WebhookQuery): Fields {
  const names = Object.keys(query).filter((name) => !NOT_FIELDS.has(name.toLowerCase()))
  if (names.length === 0) return {}
  // A repeated parameter (`?action=exit&action=buy`) comes as a list: each value is kept as its own field.
  const record: Record<string, unknown> = {}
  const repeated = new RepeatedNames()
  for (const name of names) {
    const value = query[name]
    for (const each of Array.isArray(value) ? value : [value]) record[repeated.key(name)] = each
  }
  return extractFields(record)
}
