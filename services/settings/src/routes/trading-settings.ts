import type { Static } from 'typebox'
import type { FastifyInstance } from 'fastify'
import { ErrorBody, badRequest, notFound } from '@signals/http-kit'
import { getOrCreateSettings, saveSetting, type StoredSetting } from '../repositories/trading-settings.ts'
import { enqueueFeedCommand } from '../repositories/feed-commands.ts'
import { deliverFeedCommand } from '../feed/deliver-feed-command.ts'
import {
  LiveTradingValue,
  RiskStrategyValue,
  SETTING_KEYS,
  SaveSettingBody,
  SaveSettingResponse,
  TradingSettingsResponse,
  isSettingKey,
  type SettingKey,
  type SettingsByKey,
} from '../schemas/trading-settings.ts'
import { validator } from '../validation.ts'
import { isMissingUser, type RouteOptions } from './options.ts'

const valueValidators = {
  risk_strategy: validator(RiskStrategyValue, 'Invalid setting value for risk_strategy'),
  live_trading: validator(LiveTradingValue, 'Invalid setting value for live_trading'),
} as const

const MISSING = 'Invalid setting key or missing parameters'

export function settingsResponse(settings: Record<SettingKey, StoredSetting>): SettingsByKey {
  return {
    risk_strategy: { value: settings.risk_strategy.value as SettingsByKey['risk_strategy']['value'], updatedAt: settings.risk_strategy.updatedAt.toISOString() },
    live_trading: { value: settings.live_trading.value as SettingsByKey['live_trading']['value'], updatedAt: settings.live_trading.updatedAt.toISOString() },
  }
}

/**
 * The spec's POST rules, in its words: an unknown key or a missing parameter is a 400 starting "Invalid
 * setting key"; a value that does not fit its key names the field.
 */
export function parseSaveSettingBody(body: unknown): { settingKey: SettingKey; settingValue: unknown } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest(`${MISSING}: the body must be a JSON object with settingKey and settingValue`)
  }
  const { settingKey, settingValue, ...rest } = body as Record<string, unknown>
  if (settingKey === undefined || settingKey === null || settingKey === '') {
    throw badRequest(`${MISSING}: settingKey is required (${SETTING_KEYS.join(' or ')})`)
  }
  if (!isSettingKey(settingKey)) {
    const shown = typeof settingKey === 'string' ? JSON.stringify(settingKey.slice(0, 50)) : `of type ${typeof settingKey}`
    throw badRequest(`Invalid setting key ${shown}: allowed keys are ${SETTING_KEYS.join(' and ')}`)
  }
  if (settingValue === undefined || settingValue === null) throw badRequest(`${MISSING}: settingValue is required`)
  const unknown = Object.keys(rest)[0]
  if (unknown !== undefined) throw badRequest(`Invalid request: ${unknown.slice(0, 50)} is not a known field (settingKey, settingValue)`)
  return { settingKey, settingValue }
}

export async function tradingSettingsRoutes(app: FastifyInstance, options: RouteOptions): Promise<void> {
  app.get(
    '/api/trading-settings',
    {
      schema: {
        tags: ['settings'],
        summary: "The user's trading settings, creating any missing one with its default first",
        response: { 200: TradingSettingsResponse, 401: ErrorBody, 500: ErrorBody },
      },
    },
    async (request) => {
      try {
        return { success: true as const, settings: settingsResponse(await getOrCreateSettings(app.db, request.identity.userId)) }
      } catch (error) {
        if (isMissingUser(error)) throw notFound('User not found')
        throw error
      }
    },
  )

  app.post(
    '/api/trading-settings',
    {
      schema: {
        tags: ['settings'],
        summary: 'Save one setting (upsert); saving live_trading starts or stops the broker feed on a change',
        body: SaveSettingBody,
        response: { 200: SaveSettingResponse, 400: ErrorBody, 401: ErrorBody, 500: ErrorBody },
      },
      // The handler validates, so its 400 texts follow the spec (see parseSaveSettingBody).
      validatorCompiler: () => (data: unknown) => ({ value: data }),
    },
    async (request) => {
      const userId = request.identity.userId
      const { settingKey, settingValue } = parseSaveSettingBody(request.body as unknown)
      const value = valueValidators[settingKey].parse(settingValue, 'settingValue')

      const { saved, command } = await app.db
        .transaction()
        .execute(async (trx) => {
          const change = await saveSetting(trx, userId, settingKey, value)
          if (settingKey !== 'live_trading') return { saved: change.saved, command: null }
          const before = change.previous as Static<typeof LiveTradingValue>
          const after = value as Static<typeof LiveTradingValue>
          if (before.enabled === after.enabled) return { saved: change.saved, command: null }
          const command = await enqueueFeedCommand(trx, {
            userId,
            action: after.enabled ? 'start' : 'stop',
            reason: after.enabled ? 'live trading enabled' : 'live trading disabled',
          })
          return { saved: change.saved, command }
        })
        .catch((error: unknown) => {
          if (isMissingUser(error)) throw notFound('User not found')
          throw error
        })

      const feedCommand = command ? await deliverFeedCommand(app, command, options.feedPublishTimeoutMs) : null
      if (command) request.log.info({ action: command.action, commandId: command.command_id, delivery: feedCommand?.delivery }, 'live trading changed')
      return {
        success: true as const,
        setting: { settingKey, value: saved.value as Static<typeof RiskStrategyValue>, updatedAt: saved.updatedAt.toISOString() },
        feedCommand,
      }
    },
  )
}

