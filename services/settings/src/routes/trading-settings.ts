import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { notFound } from '@signals/http-kit'
import { getOrCreateSettings, saveSetting, type StoredSetting } from '../repositories/trading-settings.ts'
import { savePrimarySwitches } from '../repositories/primary-switches.ts'
import { enqueueFeedCommand } from '../repositories/feed-commands.ts'
import { deliverFeedCommand } from '../feed/deliver-feed-command.ts'
import {
  SaveSettingBody,
  SaveSettingResponse,
  TradingSettingsResponse,
  type LiveTradingValue,
  type RiskStrategyValue,
  type SettingKey,
  type SettingsByKey,
} from '../schemas/trading-settings.ts'
import { isMissingUser, type RouteOptions } from './options.ts'

export function settingsResponse(settings: Record<SettingKey, StoredSetting>): SettingsByKey {
  return {
    risk_strategy: { value: settings.risk_strategy.value as SettingsByKey['risk_strategy']['value'], updatedAt: settings.risk_strategy.updatedAt.toISOString() },
    live_trading: { value: settings.live_trading.value as SettingsByKey['live_trading']['value'], updatedAt: settings.live_trading.updatedAt.toISOString() },
  }
}

export const tradingSettingsRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, options) => {
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
      const settings = await getOrCreateSettings(app.db, request.identity.userId).catch((error: unknown) => {
        throw isMissingUser(error) ? notFound('User not found') : error
      })
      if (!settings) throw notFound('User not found')
      return { success: true as const, settings: settingsResponse(settings) }
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
    },
    async (request) => {
      const userId = request.identity.userId
      const { settingKey, settingValue: value } = request.body

      const { saved, command } = await app.db
        .transaction()
        .execute(async (trx) => {
          if (settingKey !== 'live_trading') return { saved: (await saveSetting(trx, userId, settingKey, value as RiskStrategyValue)).saved, command: null }
          // live_trading is the primary account's switches, the row the connector reads.
          const after = value as LiveTradingValue
          const change = await savePrimarySwitches(trx, userId, () => after)
          if (!change) throw notFound('User not found')
          if (change.previous.enabled === after.enabled) return { saved: change.saved, command: null }
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
        setting: { settingKey, value: saved.value as RiskStrategyValue, updatedAt: saved.updatedAt.toISOString() },
        feedCommand,
      }
    },
  )
}
