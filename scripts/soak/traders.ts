import { signInThroughProvider } from '@signals/dev-oidc-provider/test-client'
import { waitFor } from '@signals/test-support'
import { TRADER_PASSWORD } from './platform.ts'

/** A signed-in browser session: the gateway's cookie and the user it belongs to. */
export interface Session {
  userId: string
  email: string
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>
}

/** Signs in through the gateway and the development provider's real form, as a browser does. */
export async function signIn(gatewayUrl: string, publicUrl: string, email: string): Promise<Session> {
  const start = await fetch(`${gatewayUrl}/auth/google`, { redirect: 'manual' })
  const loginCookies = start.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '').join('; ')
  const { callbackUrl } = await signInThroughProvider({ authorizationUrl: start.headers.get('location') as string, email })
  const callback = new URL(callbackUrl)
  const signedIn = await fetch(`${gatewayUrl}${callback.pathname}${callback.search}`, { redirect: 'manual', headers: { cookie: loginCookies } })
  const cookie = signedIn.headers.getSetCookie().map((line) => line.split(';')[0] ?? '').find((line) => line.startsWith('signals.sid='))
  if (!cookie) throw new Error(`sign-in of ${email} set no session (${signedIn.status})`)
  const headers = { cookie, origin: publicUrl, 'content-type': 'application/json' }
  const call: Session['call'] = async (method, path, body) => {
    const response = await fetch(`${gatewayUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, unknown> }
  }
  const me = await call('GET', '/auth/me')
  const userId = (me.body.user as { userId?: string } | undefined)?.userId
  if (!userId) throw new Error(`/auth/me for ${email} answered ${me.status}`)
  return { userId, email, call }
}

const expectOk = async (what: string, answer: Promise<{ status: number; body: unknown }>) => {
  const { status, body } = await answer
  if (status !== 200) throw new Error(`${what}: ${status} ${JSON.stringify(body)}`)
}

/**
 * The trader's risk-engine configuration with room for a long run: the defaults (a $2,000 trailing
 * drawdown, an evaluation with a profit target) would refuse every entry after a few minutes of this
 * load, and the soak is about the platform carrying orders, not about the risk rules (tested elsewhere).
 */
async function roomyRiskConfig(trader: Session): Promise<{ status: number; body: unknown }> {
  const { body } = await trader.call('GET', '/api/risk-engine/config')
  const config = body.config as { trailingDrawdown: { amount: number }; dailyLossLimit: { amount: number }; verification: { phase: string } }
  config.trailingDrawdown.amount = 40_000
  config.dailyLossLimit.amount = 40_000
  config.verification.phase = 'funded'
  return trader.call('POST', '/api/risk-engine/config', config)
}

/**
 * `count` traders through the real APIs: each signs in (pending), the administrator approves them, and
 * each saves paper-broker credentials and switches live trading and auto-place on; returns once every
 * trader's broker feed is connected. Each also widens its risk limits (roomyRiskConfig).
 */
export async function setUpTraders(gatewayUrl: string, publicUrl: string, admin: Session, count: number): Promise<Session[]> {
  const traders: Session[] = []
  for (let i = 0; i < count; i++) traders.push(await signIn(gatewayUrl, publicUrl, `soak-trader-${i}@soak.test`))
  for (const trader of traders) await expectOk(`approve ${trader.email}`, admin.call('POST', `/api/admin/users/${encodeURIComponent(trader.userId)}/approve`, {}))
  for (const [i, trader] of traders.entries()) {
    const credentials = { broker: 'paper', environment: 'demo', accountId: String(9000 + i), username: `trader-${i}`, password: TRADER_PASSWORD }
    await expectOk(`credentials of ${trader.email}`, trader.call('PUT', '/api/broker-credentials', credentials))
    await expectOk(`risk settings of ${trader.email}`, roomyRiskConfig(trader))
    await expectOk(`live trading of ${trader.email}`, trader.call('POST', '/api/trading-settings', { settingKey: 'live_trading', settingValue: { enabled: true, autoPlaceOrders: true } }))
  }
  for (const trader of traders) {
    await waitFor(
      async () => {
        const { body } = await trader.call('GET', '/api/live-trading-status')
        return (body.status as { brokerConnection?: { connected?: boolean } } | undefined)?.brokerConnection?.connected === true ? true : undefined
      },
      { what: `${trader.email}'s broker feed`, timeoutMs: 60_000, intervalMs: 250 },
    )
  }
  return traders
}
