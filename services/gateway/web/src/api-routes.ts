// The calls the pages make, typed from the services' TypeBox route schemas (`Static<typeof …>`). Type-only
// imports: nothing server-side reaches the bundle (scripts/build-web.ts bundles; the check is in web.md).
import type { Static } from 'typebox'
import type { UserProfile } from '../../../../packages/contracts/src/api.ts'
import type { AlertsPage } from '../../../broker-connector/src/schemas/alerts.ts'
import type { TradesPage } from '../../../broker-connector/src/schemas/trades.ts'
import type { KillSwitchHistory, KillSwitchResponse, TradeCloseResponse } from '../../../broker-connector/src/schemas/kill-switch.ts'
import type { RiskEngineConfigResponse } from '../../../settings/src/schemas/risk-engine-config.ts'
import type { LiveTradingStatusResponse } from '../../../settings/src/schemas/live-trading-status.ts'
import type { SaveSettingBody, SaveSettingResponse, TradingSettingsResponse } from '../../../settings/src/schemas/trading-settings.ts'
import type { ChannelBody, ChannelResponse, ChannelsResponse, DeleteChannelResponse, TestSendResponse } from '../../../settings/src/schemas/notification-channels.ts'
import type {
  BrokerCredentialsBody,
  BrokersResponse,
  CredentialsResponse,
  DeleteCredentialsResponse,
  SaveCredentialsResponse,
  TestCredentialsResponse,
} from '../../../settings/src/schemas/broker-credentials.ts'

/** A page of a list route (`?limit=&before=`). */
type PageQuery = { limit: string; before?: string }

/** Each route as `METHOD /path` (`:name` a path parameter): its query, body and success response. */
export interface Routes {
  'GET /auth/me': { response: { success: true; user: Static<typeof UserProfile> } }
  'GET /api/alerts': { query: PageQuery; response: Static<typeof AlertsPage> }
  'GET /api/trades': { query: PageQuery & { status?: 'open' | 'closed' }; response: Static<typeof TradesPage> }
  'POST /api/trades/:id/close': { params: { id: string }; response: Static<typeof TradeCloseResponse> }
  'GET /api/kill-switch': { response: Static<typeof KillSwitchHistory> }
  'POST /api/kill-switch': { response: Static<typeof KillSwitchResponse> }
  'GET /api/risk-engine/config': { response: Static<typeof RiskEngineConfigResponse> }
  'GET /api/live-trading-status': { response: Static<typeof LiveTradingStatusResponse> }
  'GET /api/trading-settings': { response: Static<typeof TradingSettingsResponse> }
  'POST /api/trading-settings': { body: Static<typeof SaveSettingBody>; response: Static<typeof SaveSettingResponse> }
  'GET /api/brokers': { response: Static<typeof BrokersResponse> }
  'GET /api/broker-credentials': { response: Static<typeof CredentialsResponse> }
  'PUT /api/broker-credentials': { body: BrokerCredentialsBody; response: Static<typeof SaveCredentialsResponse> }
  'DELETE /api/broker-credentials': { response: Static<typeof DeleteCredentialsResponse> }
  'POST /api/broker-credentials/test': { response: Static<typeof TestCredentialsResponse> }
  'GET /api/notifications/channels': { response: Static<typeof ChannelsResponse> }
  'POST /api/notifications/channels': { body: ChannelBody; response: Static<typeof ChannelResponse> }
  'PUT /api/notifications/channels/:id': { params: { id: string }; body: ChannelBody; response: Static<typeof ChannelResponse> }
  'DELETE /api/notifications/channels/:id': { params: { id: string }; response: Static<typeof DeleteChannelResponse> }
  'POST /api/notifications/channels/:id/test': { params: { id: string }; response: Static<typeof TestSendResponse> }
}

export type Route = keyof Routes
export type ResponseOf<R extends Route> = Routes[R]['response']
