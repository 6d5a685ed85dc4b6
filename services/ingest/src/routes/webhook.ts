import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify'
import { Counter } from 'prom-client'
import Type from 'typebox'
import { BusUnavailableError } from '@signals/bus'
import { listOf } from '@signals/config'
import { AlertKind, contract, ErrorBody, NormalizedAlertV1, Subjects } from '@signals/contracts'
import type { Config } from '../config.ts'
import { AddressRateLimit } from '../http/address-rate-limit.ts'
import { sourceAllowList, tradingViewBudget } from '../http/source-allow-list.ts'
import { clientAddressHook } from '../http/client-address.ts'
import { refuseStaleAlert } from '../intake/alert-age.ts'
import { IntakeLog } from '../intake/intake-log.ts'
import { outcomeOfStatus, type IntakeOutcome } from '../intake/intake-state.ts'
import { nowIso } from '../intake/received-at.ts'
import { selectSource, type SourceText } from '../intake/source.ts'
import { extractFields, type Fields } from '../parsing/fields.ts'
import { RepeatedNames } from '../parsing/label-lines.ts'
import { normalizeAlert } from '../parsing/normalize.ts'
import { parseAlert, UnparseableAlertError } from '../parsing/parse-alert.ts'
import { Refusal } from '../refusal.ts'
import { SecretRedactor, secretMatcher } from '../webhook-secret.ts'

/** Well under TradingView's 3 s, so a bus that does not answer turns into a 503 within 2 s. */
const PUBLISH_TIMEOUT_MS = 1_500

const SUBJECT_OF_KIND = { entry: Subjects.alertEntry, result: Subjects.alertResult, test: Subjects.alertTest } as const
const AlertContract = contract(NormalizedAlertV1)

export const WebhookAccepted = Type.Object(
  { success: Type.Literal(true), alertId: Type.String(), kind: AlertKind, duplicate: Type.Boolean() },
  { additionalProperties: false },
)

/** Query parameters that are never alert fields. */
const NOT_FIELDS = new Set(['message', 'secret', 'passphrase'])

/**
 * `POST /webhook/alert` (and `/webhook/alert/<secret>` when WEBHOOK_SECRET is set): capture, parse,
 * normalize, route, publish; 200 only once JetStream has the alert. Every request, answered however,
 * leaves one intake-log entry.
 */
export async function webhookRoutes(app: FastifyInstance, options: { config: Config }) {
  const { config } = options
  const premiumIndicators = new Set(listOf(config.PREMIUM_INDICATORS).map((name) => name.toLowerCase()))
  const webhookSecret = config.WEBHOOK_SECRET
  const matchesSecret = webhookSecret === undefined ? null : secretMatcher(webhookSecret)
  const configuredRedactor = new SecretRedactor(webhookSecret === undefined ? [] : [webhookSecret])
  const isAllowedSource = sourceAllowList(config.INGEST_ALLOWED_SOURCES)
  const maxAgeMs = config.ALERT_MAX_AGE_SECONDS === undefined ? null : config.ALERT_MAX_AGE_SECONDS * 1000

  const intakeLog = new IntakeLog(app.bus, app.log, app.metrics)
  app.addHook('onClose', () => intakeLog.close())
  const webhooks = new Counter({
    name: 'ingest_webhooks_total',
    help: 'webhooks answered, by intake outcome',
    labelNames: ['outcome'] as const,
    registers: [app.metrics],
  })
  const webhooksByOutcome: Partial<Record<IntakeOutcome, ReturnType<typeof webhooks.labels>>> = {}

  app.decorateRequest('intake', null as never)
  clientAddressHook(app, config.INTERNAL_AUTH_SECRET)
  app.addHook('onRequest', (request, _reply, done) => {
    // Every field present from the start: one object shape for every request.
    request.intake = { receivedAt: nowIso(), redactor: configuredRedactor, sourceText: undefined, outcome: undefined, reason: undefined, alertId: undefined, kind: undefined }
    done()
  })
  if (isAllowedSource) {
    app.addHook('preValidation', async (request) => {
      if (!isAllowedSource(request.clientAddress)) throw new Refusal(403, 'forbidden', 'Source address not allowed to post alerts')
    })
  }
  app.addHook('onError', async (request, _reply, error) => {
    if (error instanceof Refusal) request.intake.outcome = error.outcome
    request.intake.reason = error.message
  })
  app.addHook('onResponse', (request, reply, done) => {
    try {
      const intake = request.intake
      const { source, text } = sourceOf(request)
      const outcome = intake.outcome ?? outcomeOfStatus(reply.statusCode)
      webhooksByOutcome[outcome] ??= webhooks.labels({ outcome })
      webhooksByOutcome[outcome].inc()
      intakeLog.record({
        version: 1,
        intakeId: randomUUID(),
        receivedAt: intake.receivedAt,
        source,
        contentType: request.originalContentType?.slice(0, 255) ?? null,
        remoteAddress: request.clientAddress.slice(0, 64),
        rawBody: intake.redactor.text(text),
        outcome,
        statusCode: reply.statusCode,
        // A refusal may quote what was sent (an action word, a placeholder): redacted like the body.
        reason: intake.reason === undefined ? null : intake.redactor.text(intake.reason),
        alertId: intake.alertId ?? null,
        kind: intake.kind ?? null,
      })
    } finally {
      done()
    }
  })

  if (config.INGEST_RATE_LIMIT_PER_MINUTE > 0) {
    const limit = config.INGEST_RATE_LIMIT_PER_MINUTE
    const rateLimit = new AddressRateLimit(limit, 60_000, Date.now, undefined, tradingViewBudget(limit))
    // After the body is read, so a refused alert still reaches the intake log whole.
    app.addHook('preHandler', (request, reply, done) => {
      const retryAfterSeconds = rateLimit.take(request.clientAddress)
      if (retryAfterSeconds === null) return done()
      reply.header('retry-after', retryAfterSeconds)
      done(new Refusal(429, 'rate_limited', `Too many alerts from this address (at most ${rateLimit.limitOf(request.clientAddress)} a minute); retry in ${retryAfterSeconds} s`))
    })
  }
  const route: RouteShorthandOptions = { schema: { response: { 200: WebhookAccepted, '4xx': ErrorBody, '5xx': ErrorBody } } }

  app.post('/webhook/alert', route, acceptAlert)
  if (matchesSecret) app.post('/webhook/alert/:secret', route, acceptAlert)

  async function acceptAlert(request: FastifyRequest) {
    const intake = request.intake
    const { text } = sourceOf(request)
    const query = request.query as Record<string, unknown>
    const parsed = parseSourceText(request, text)

    if (matchesSecret && webhookSecret !== undefined) {
      const sent = [(request.params as { secret?: unknown }).secret, query.secret, query.passphrase, ...parsed.secrets]
        .flatMap((value) => (Array.isArray(value) ? value : [value]))
        .filter((value): value is string => typeof value === 'string' && value !== '')
      intake.redactor = new SecretRedactor([webhookSecret, ...sent])
      if (!sent.some(matchesSecret)) throw new Refusal(401, 'unauthorized', 'Webhook secret missing or wrong')
    }

    const queryFields = queryFieldsOf(query)
    refuseStaleAlert({ time: parsed.fields.time ?? queryFields.time, maxLag: parsed.fields.maxLag ?? queryFields.maxLag }, intake.receivedAt, maxAgeMs)

    const alert = normalizeAlert(parsed, queryFields, { premiumIndicators, receivedAt: intake.receivedAt, sourceText: text, redactor: intake.redactor })
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

  function sourceOf(request: FastifyRequest): SourceText {
    request.intake.sourceText ??= selectSource({
      query: request.query as Record<string, unknown>,
      body: request.body,
      headerMessage: request.headers['x-alert-message'],
      contentType: request.originalContentType,
    })
    return request.intake.sourceText
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
}

/** Alert fields sent as query parameters, besides the alert text and the secret. */
function queryFieldsOf(query: Record<string, unknown>): Fields {
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
