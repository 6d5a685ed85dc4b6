import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ErrorBody } from '@signals/contracts'
import { badRequest, notFound } from '@signals/http-kit'
import {
  DEFAULT_RISK_ENGINE_CONFIG,
  PROP_FIRM_PRESETS,
  RiskEngineConfigPatch,
  applyPreset,
  crossFieldProblem,
  normalizeRiskEngineConfig,
  propFirmPreset,
} from '@signals/risk-engine'
import { findPrimaryRiskConfig, savePrimaryRiskConfig } from '../repositories/account-risk-configs.ts'
import { RiskEngineConfigResponse } from '../schemas/risk-engine-config.ts'
import { PresetIdParams, PropFirmPresetsResponse } from '../schemas/risk-engine-presets.ts'
import { presetOriginOf } from '../preset-origin.ts'
import { isMissingUser } from './options.ts'

/** Prop-firm presets (docs/risk-engine-config.md, "Prop-firm presets"): the table, and filling the configuration from one. */
export const riskEnginePresetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/risk-engine/presets',
    {
      schema: {
        tags: ['risk engine'],
        summary: 'The prop-firm presets: per firm and plan, the configuration fields the sources state, with the sources and when they were read',
        response: { 200: PropFirmPresetsResponse, 401: ErrorBody },
      },
    },
    async () => ({
      success: true as const,
      presets: PROP_FIRM_PRESETS.map((preset) => ({ ...preset, fields: { ...preset.fields }, notCovered: [...preset.notCovered], sources: [...preset.sources] })),
    }),
  )

  app.post(
    '/api/risk-engine/presets/:id/apply',
    {
      schema: {
        tags: ['risk engine'],
        summary:
          "Fill the user's configuration from a preset and save it: the preset's fields over the saved configuration (the defaults when none), then any field sent in the body over those",
        params: PresetIdParams,
        body: RiskEngineConfigPatch,
        response: { 200: RiskEngineConfigResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 500: ErrorBody },
      },
      // No body is no change over the preset.
      preValidation: async (request) => {
        request.body ??= {}
      },
    },
    async (request) => {
      const preset = propFirmPreset(request.params.id)
      if (!preset) throw notFound(`Unknown prop-firm preset "${request.params.id}": GET /api/risk-engine/presets lists the presets`)
      const userId = request.identity.userId
      const stored = await findPrimaryRiskConfig(app.db, userId)
      const base = stored ? normalizeRiskEngineConfig(stored.config) : DEFAULT_RISK_ENGINE_CONFIG
      const { config, presetValues } = applyPreset(base, preset, request.body)
      const problem = crossFieldProblem(config)
      if (problem) throw badRequest(`Invalid risk-engine configuration: ${problem} (after applying preset ${preset.id})`)
      const origin = { id: preset.id, firm: preset.firm, plan: preset.plan, values: presetValues }
      const saved = await savePrimaryRiskConfig(app.db, userId, config, origin).catch((error: unknown) => {
        throw isMissingUser(error) ? notFound('User not found') : error
      })
      if (!saved) throw notFound('User not found')
      return { success: true as const, config, updatedAt: saved.updatedAt.toISOString(), isDefault: false, preset: presetOriginOf(origin, config) }
    },
  )
}
