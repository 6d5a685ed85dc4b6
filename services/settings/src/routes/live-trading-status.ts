import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { notFound } from '@signals/http-kit'
import type { CredentialsCipher } from '@signals/secrets'
import { getOrCreateSettings } from '../repositories/trading-settings.ts'
import { findPrimaryLogin } from '@signals/db'
import { countOpenTrades } from '../repositories/trades.ts'
import { summarizeCredentials } from '../credentials-summary.ts'
import { statusIndicator } from '../status-indicator.ts'
import { liveIndicatorOf } from '../broker-indicator.ts'
import type { FeedStatusReader } from '../feed/feed-status-reader.ts'
import { LiveTradingStatusResponse } from '../schemas/live-trading-status.ts'
import { settingsResponse } from './trading-settings.ts'
import { isMissingUser, type RouteOptions } from './options.ts'

export const liveTradingStatusRoutes: FastifyPluginAsyncTypebox<RouteOptions & { feedStatus: FeedStatusReader; cipher: CredentialsCipher; feedDownGraceMs: number }> = async (app, options) => {
  app.get(
    '/api/live-trading-status',
    {
      schema: {
        tags: ['settings'],
        summary: 'Whether live trading is configured, its indicator, open trades and the broker connection',
        response: { 200: LiveTradingStatusResponse, 401: ErrorBody, 500: ErrorBody },
      },
    },
    async (request) => {
      const userId = request.identity.userId
      const [settings, credentialsRow, liveTradesCount, connection] = await Promise.all([
        getOrCreateSettings(app.db, userId).catch((error: unknown) => {
          throw isMissingUser(error) ? notFound('User not found') : error
        }),
        findPrimaryLogin(app.db, userId),
        countOpenTrades(app.db, userId),
        options.feedStatus.read(userId),
      ])
      if (!settings) throw notFound('User not found')
      const live = settings.live_trading.value as { enabled: boolean; autoPlaceOrders: boolean }
      const credentials = credentialsRow ? summarizeCredentials(credentialsRow, options.cipher) : null
      const flags = { liveTradingEnabled: live.enabled, autoPlaceOrdersEnabled: live.autoPlaceOrders, hasCredentials: credentials !== null }
      const { indicator, indicatorReason, brokerConnection } = liveIndicatorOf(flags, connection, new Date(), options.feedDownGraceMs)
      return {
        success: true as const,
        status: {
          ...flags,
          isFullyConfigured: statusIndicator(flags) === 'green',
          liveTradesCount,
          accountId: credentials?.accountId ?? null,
          credentialsUpdatedAt: credentials?.updatedAt ?? null,
          indicator,
          indicatorReason,
          brokerConnection,
        },
        settings: settingsResponse(settings),
        credentials,
      }
    },
  )
}
