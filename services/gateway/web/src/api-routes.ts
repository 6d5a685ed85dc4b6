// The calls the pages make, typed from the services' TypeBox route schemas (`Static<typeof …>`). Type-only
// imports: nothing server-side reaches the bundle (scripts/build-web.ts bundles; the check is in web.md).
import type { Static } from 'typebox'
import type { UserProfile } from '../../../../packages/contracts/src/api.ts'
import type { AlertsPage } from '../../../broker-connector/src/pages/schemas/alerts.ts'
import type { TradesPage } from '../../../broker-connector/src/pages/schemas/trades.ts'
import type { AlertStepsResponse, BrokerOrdersResponse, BrokerPositionsResponse } from '../../../broker-connector/src/pages/schemas/broker-view.ts'
import type { MyIntakePage } from '../../../admin/src/schemas/intake.ts'
import type { KillSwitchHistory, KillSwitchResponse, TradeCloseResponse } from '../../../broker-connector/src/pages/schemas/kill-switch.ts'
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
import type { SourceBody, SourceResponse, SourcesResponse, SourceWithUrlResponse, SubscriptionsBody } from '../../../settings/src/schemas/signal-sources.ts'
import type { AccountChangeBody, AccountResponse, AccountsResponse, DeletedAccountResponse, NewAccountBody } from '../../../settings/src/schemas/accounts.ts'
import type { UsersPage, UserResult } from '../../../admin/src/schemas/users.ts'
import type { BanBody, BanResult, BansPage, LiftedBan } from '../../../admin/src/schemas/bans.ts'
import type { AuditPage } from '../../../admin/src/schemas/audit.ts'
import type { IntakePage, ReplayResult } from '../../../admin/src/schemas/intake.ts'

/** A page of a list route (`?limit=&before=`). */
type PageQuery = { limit: string; before?: string | undefined }

/** Each route as `METHOD /path` (`:name` a path parameter): its query, body and success response. */
export interface Routes {
  'GET /auth/me': { response: { success: true; user: Static<typeof UserProfile> } }
  'GET /api/alerts': { query: PageQuery & { accountId?: string | undefined }; response: Static<typeof AlertsPage> }
  'GET /api/trades': { query: PageQuery & { status?: 'open' | 'closed'; accountId?: string | undefined }; response: Static<typeof TradesPage> }
  'POST /api/trades/:id/close': { params: { id: string }; response: Static<typeof TradeCloseResponse> }
  'GET /api/kill-switch': { response: Static<typeof KillSwitchHistory> }
  'POST /api/kill-switch': { response: Static<typeof KillSwitchResponse> }
  'GET /api/risk-engine/config': { response: Static<typeof RiskEngineConfigResponse> }
  'POST /api/risk-engine/config': { body: RiskConfig; response: Static<typeof RiskEngineConfigResponse> }
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
  'GET /api/admin/users': { query: PageQuery & { status?: 'pending' | 'approved' | 'all'; search?: string }; response: Static<typeof UsersPage> }
  'POST /api/admin/users/:userId/approve': { params: { userId: string }; response: Static<typeof UserResult> }
  'POST /api/admin/users/:userId/revoke': { params: { userId: string }; response: Static<typeof UserResult> }
  'GET /api/admin/bans': { query: PageQuery; response: Static<typeof BansPage> }
  'POST /api/admin/bans': { body: Static<typeof BanBody>; response: Static<typeof BanResult> }
  'DELETE /api/admin/bans/:email': { params: { email: string }; response: Static<typeof LiftedBan> }
  'GET /api/admin/audit': { query: PageQuery & { action?: string; actor?: string }; response: Static<typeof AuditPage> }
  'GET /api/admin/intake': { query: PageQuery & { outcome?: string; raw?: 'true' }; response: Static<typeof IntakePage> }
  'POST /api/admin/intake/:id/replay': { params: { id: string }; response: Static<typeof ReplayResult> }
  'POST /api/notifications/channels/:id/test': { params: { id: string }; response: Static<typeof TestSendResponse> }
  'GET /api/broker/positions': { response: Static<typeof BrokerPositionsResponse> }
  'GET /api/broker/orders': { query: { limit: string }; response: Static<typeof BrokerOrdersResponse> }
  'GET /api/alerts/:id/steps': { params: { id: string }; response: Static<typeof AlertStepsResponse> }
  'GET /api/signal-sources': { response: Static<typeof SourcesResponse> }
  'POST /api/signal-sources': { body: SourceBody; response: Static<typeof SourceWithUrlResponse> }
  'POST /api/signal-sources/:id/rotate': { params: { id: string }; response: Static<typeof SourceWithUrlResponse> }
  'DELETE /api/signal-sources/:id': { params: { id: string }; response: Static<typeof SourceResponse> }
  'PUT /api/signal-sources/:id/subscriptions': { params: { id: string }; body: SubscriptionsBody; response: Static<typeof SourceResponse> }
  'GET /api/accounts': { response: Static<typeof AccountsResponse> }
  'POST /api/accounts': { body: NewAccountBody; response: Static<typeof AccountResponse> }
  'PATCH /api/accounts/:id': { params: { id: string }; body: AccountChangeBody; response: Static<typeof AccountResponse> }
  'DELETE /api/accounts/:id': { params: { id: string }; response: Static<typeof DeletedAccountResponse> }
  'GET /api/accounts/:id/risk-engine/config': { params: { id: string }; response: Static<typeof RiskEngineConfigResponse> }
  'POST /api/accounts/:id/risk-engine/config': { params: { id: string }; body: RiskConfig; response: Static<typeof RiskEngineConfigResponse> }
  'GET /api/intake': { query: PageQuery & { outcome?: 'accepted' | 'duplicate'; refused?: 'true'; kind?: 'entry' | 'result' | 'test'; raw?: 'true' }; response: Static<typeof MyIntakePage> }
}

/** The risk-engine configuration as the settings service answers it and takes it back (session rules optional on a save). */
export type RiskConfig = Static<typeof RiskEngineConfigResponse>['config']

export type Route = keyof Routes
export type ResponseOf<R extends Route> = Routes[R]['response']
