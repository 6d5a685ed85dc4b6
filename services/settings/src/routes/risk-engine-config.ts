import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { badRequest, notFound } from '@signals/http-kit'
import { findPrimaryRiskConfig, savePrimaryRiskConfig } from '../repositories/account-risk-configs.ts'
import { DEFAULT_RISK_ENGINE_CONFIG, RiskEngineConfig, crossFieldProblem, normalizeRiskEngineConfig, withSessionRules } from '@signals/risk-engine'
import { RiskEngineConfigResponse } from '../schemas/risk-engine-config.ts'
import { presetOriginOf } from '../preset-origin.ts'
import { isMissingUser, type RouteOptions } from './options.ts'

export const riskEngineConfigRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app) => {
  app.get(
    '/api/risk-engine/config',
    {
      schema: {
        tags: ['risk engine'],
        summary: "The user's complete risk-engine configuration (the defaults when nothing was saved)",
        response: { 200: RiskEngineConfigResponse, 401: ErrorBody, 500: ErrorBody },
      },
    },
    async (request) => {
      const stored = await findPrimaryRiskConfig(app.db, request.identity.userId)
      if (!stored) return { success: true as const, config: DEFAULT_RISK_ENGINE_CONFIG, updatedAt: null, isDefault: true, preset: null }
      const config = normalizeRiskEngineConfig(stored.config)
      return { success: true as const, config, updatedAt: stored.updatedAt.toISOString(), isDefault: false, preset: presetOriginOf(stored.preset, config) }
    },
  )

  app.post(
    '/api/risk-engine/config',
    {
      schema: {
        tags: ['risk engine'],
        summary: 'Save the complete risk-engine configuration (every area and field; see the schema for bounds)',
        body: RiskEngineConfig,
        response: { 200: RiskEngineConfigResponse, 400: ErrorBody, 401: ErrorBody, 500: ErrorBody },
      },
    },
    async (request) => {
      const config = withSessionRules(request.body)
      const problem = crossFieldProblem(config)
      if (problem) throw badRequest(`Invalid risk-engine configuration: ${problem}`)
      const saved = await savePrimaryRiskConfig(app.db, request.identity.userId, config).catch((error: unknown) => {
        throw isMissingUser(error) ? notFound('User not found') : error
      })
      if (!saved) throw notFound('User not found')
      // A plain save keeps the preset the configuration came from; the answer says what now differs from it.
      return { success: true as const, config, updatedAt: saved.updatedAt.toISOString(), isDefault: false, preset: presetOriginOf(saved.preset, config) }
    },
  )
}
