import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { badRequest } from '@signals/http-kit'
import { DEFAULT_RISK_ENGINE_CONFIG, RiskEngineConfig, crossFieldProblem, normalizeRiskEngineConfig, withSessionRules } from '@signals/risk-engine'
import { findAccount } from '../repositories/broker-accounts.ts'
import { findAccountRiskConfig, saveAccountRiskConfig } from '../repositories/account-risk-configs.ts'
import { RiskEngineConfigResponse } from '../schemas/risk-engine-config.ts'
import { AccountParams } from '../schemas/accounts.ts'
import { accountNotFound } from '../accounts/account-refusals.ts'
import { presetOriginOf } from '../preset-origin.ts'

const tags = ['accounts']
const errors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 500: ErrorBody }

/**
 * One account's risk-engine configuration, in the shapes of `/api/risk-engine/config`. The primary's is the
 * same row as that route's (its trader's configuration); every account's row is the one the connector reads
 * (docs/decisions/accounts.md, stage 3b).
 */
export const accountRiskConfigRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/accounts/:id/risk-engine/config',
    { schema: { tags, summary: "The account's complete risk-engine configuration (the defaults when nothing was saved)", params: AccountParams, response: { 200: RiskEngineConfigResponse, ...errors } } },
    async (request) => {
      const account = await findAccount(app.db, request.identity.userId, request.params.id)
      if (!account) throw accountNotFound()
      const stored = await findAccountRiskConfig(app.db, account.id)
      if (!stored) return { success: true as const, config: DEFAULT_RISK_ENGINE_CONFIG, updatedAt: null, isDefault: true, preset: null }
      const config = normalizeRiskEngineConfig(stored.config)
      return { success: true as const, config, updatedAt: stored.updatedAt.toISOString(), isDefault: false, preset: presetOriginOf(stored.preset, config) }
    },
  )

  app.post(
    '/api/accounts/:id/risk-engine/config',
    {
      schema: {
        tags,
        summary: "Save the account's complete risk-engine configuration (as POST /api/risk-engine/config)",
        params: AccountParams,
        body: RiskEngineConfig,
        response: { 200: RiskEngineConfigResponse, ...errors },
      },
    },
    async (request) => {
      const userId = request.identity.userId
      const account = await findAccount(app.db, userId, request.params.id)
      if (!account) throw accountNotFound()
      const config = withSessionRules(request.body)
      const problem = crossFieldProblem(config)
      if (problem) throw badRequest(`Invalid risk-engine configuration: ${problem}`)
      const saved = await saveAccountRiskConfig(app.db, { id: account.id, userId }, config)
      return { success: true as const, config, updatedAt: saved.updatedAt.toISOString(), isDefault: false, preset: presetOriginOf(saved.preset, config) }
    },
  )
}
