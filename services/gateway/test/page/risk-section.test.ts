// The one risk section's pure parts (issue 25, item 6): its fields held to the configuration schema, errors
// in the trader's words, the legacy cap folded into the one per-order cap, and the live sentence, which is
// the risk engine's own sizing (checked here against sizeEntry called as the connector calls it).
import t from 'tap'
import { DEFAULT_RISK_ENGINE_CONFIG, RISK_AREAS, RiskEngineConfig, sizeEntry } from '../../../../packages/risk-engine/src/index.ts'
import { ConfigSchema as ConnectorConfigSchema } from '../../../broker-connector/src/config.ts'
import { pageRiskExample, pageRiskFields, pageRiskStrategy } from './page-modules.ts'

const { RISK_FIELDS, inTradersWords, fieldNamed } = pageRiskFields
const NOW = new Date('2026-11-26T15:00:00Z')
const MNQ = { root: 'MNQ', price: 21000, stopPoints: 20, quantity: 3 }

interface NumberSchema {
  type?: string
  minimum?: number
  maximum?: number
  anyOf?: NumberSchema[]
}

t.test('every field of the configuration is on the page once, with the schema\'s bounds', async (t) => {
  const onPage = RISK_FIELDS.map((field) => `${field.area}.${field.field}`)
  t.equal(new Set(onPage).size, onPage.length, 'no field twice')
  const areas = RISK_AREAS.filter((area) => area !== 'sessionRules')
  const inSchema = areas.flatMap((area) => Object.keys(RiskEngineConfig.properties[area].properties).map((field) => `${area}.${field}`))
  t.same([...onPage].sort(), [...inSchema].sort(), 'the same fields as the schema (session rules have a page of their own)')
  for (const field of RISK_FIELDS) {
    if (field.kind !== 'number') continue
    const schema = (RiskEngineConfig.properties[field.area].properties as Record<string, NumberSchema>)[field.field] as NumberSchema
    const number = schema.anyOf?.find((branch) => branch.type !== 'null') ?? schema
    t.equal(field.min, number.minimum, `${field.area}.${field.field} minimum`)
    t.equal(field.max, number.maximum, `${field.area}.${field.field} maximum`)
    t.equal(field.integer === true, number.type === 'integer', `${field.area}.${field.field} integer`)
    t.equal(field.nullable !== undefined, schema.anyOf !== undefined, `${field.area}.${field.field} may be empty`)
    t.ok(field.help.length > 0, `${field.area}.${field.field} has help`)
  }
  t.equal(pageRiskExample.PLATFORM_MAX_CONTRACTS, (ConnectorConfigSchema.properties.MAX_CONTRACTS_PER_ORDER as { default?: unknown }).default, "the sentence assumes the connector's default ceiling")
})

t.test('messages name fields and modes as the page does', async (t) => {
  t.equal(
    inTradersWords('Invalid risk-engine configuration: antiMartingale.maxContracts must be at least antiMartingale.baseContracts', 'anti_martingale_pyramiding'),
    '"Most contracts after wins" must be at least "Base contracts"',
  )
  t.equal(inTradersWords('limits.maxRiskPerTradePercent must be <= 10', 'fixed_fraction'), '"Risk per trade (% of balance)" must be <= 10')
  t.equal(inTradersWords('The alert asked for 7 contracts; riskMode.fixedContracts caps it at 3.', 'alert_quantity'), 'The alert asked for 7 contracts; "Most contracts from one alert" caps it at 3.')
  t.equal(inTradersWords('The fixed_fraction size of 12 contracts is cut to 5.', 'fixed_fraction'), 'The "Risk a share of the balance" size of 12 contracts is cut to 5.')
  t.equal(inTradersWords('sessionRules.dailyFlattenAt is wrong', 'fixed_fraction'), 'sessionRules.dailyFlattenAt is wrong', 'a name the page does not show stays as it is')
  t.equal(fieldNamed('dailyLossLimit.amount must not exceed trailingDrawdown.amount')?.field, 'amount')
  t.equal(fieldNamed('dailyLossLimit.amount must not exceed trailingDrawdown.amount')?.area, 'dailyLossLimit')
  t.equal(fieldNamed('verification is required'), undefined)
})

t.test('the legacy "Maximum contracts" is shown as the one per-order cap and moved there on save', async (t) => {
  const strategy = { enabled: false, type: 'martingale' as const, portfolioBalance: 50000, riskPercent: 1, maxContracts: 2 }
  t.equal(pageRiskStrategy.withLegacyCap(DEFAULT_RISK_ENGINE_CONFIG, strategy).limits.maxContractsPerOrder, 2, 'the lower cap')
  t.equal(pageRiskStrategy.withLegacyCap(DEFAULT_RISK_ENGINE_CONFIG, { ...strategy, maxContracts: 40 }).limits.maxContractsPerOrder, 5, 'a higher legacy cap changes nothing')
  t.equal(pageRiskStrategy.withLegacyCap(DEFAULT_RISK_ENGINE_CONFIG, { ...strategy, maxContracts: null }), DEFAULT_RISK_ENGINE_CONFIG)
  t.same(pageRiskStrategy.strategyToSave(strategy), { ...strategy, type: 'legacy', maxContracts: null })
})

t.test("the live sentence is the risk engine's size for that alert", async (t) => {
  const sentence = (config: RiskEngineConfig, example = MNQ) => pageRiskExample.exampleSentence(config, example, NOW)
  t.match(sentence(DEFAULT_RISK_ENGINE_CONFIG), /^On a fresh account, the next MNQ alert with a 20-point stop trades 5 contracts, risking \$200\.00\. The "Risk a share of the balance" size of 12 contracts is cut to 5/)
  const wide = { ...DEFAULT_RISK_ENGINE_CONFIG, limits: { ...DEFAULT_RISK_ENGINE_CONFIG.limits, maxContractsPerOrder: 100 } }
  t.equal(sentence(wide), 'On a fresh account, the next MNQ alert with a 20-point stop trades 12 contracts, risking $480.00.', 'uncapped: the $500 budget at $40 a contract')
  const fixed = { ...DEFAULT_RISK_ENGINE_CONFIG, riskMode: { mode: 'fixed_contracts' as const, fixedContracts: 3 } }
  t.equal(sentence(fixed), 'On a fresh account, the next MNQ alert with a 20-point stop trades 3 contracts, risking $120.00.')
  const byAlert = { ...DEFAULT_RISK_ENGINE_CONFIG, riskMode: { mode: 'alert_quantity' as const, fixedContracts: 2 } }
  t.match(sentence(byAlert), /^On a fresh account, the next MNQ alert for 3 contracts with a 20-point stop trades 2 contracts, risking \$80\.00\. The alert asked for 3 contracts; "Most contracts from one alert" caps it at 2\.$/)
  t.match(sentence(DEFAULT_RISK_ENGINE_CONFIG, { ...MNQ, stopPoints: 0.5 }), /would be refused: .*stop/i, 'a refusal says why')
  t.equal(sentence(DEFAULT_RISK_ENGINE_CONFIG, { ...MNQ, root: 'XYZ' }), 'XYZ is not a contract the platform trades.')

  // The same decision as sizeEntry called with the connector's inputs for that alert.
  const decision = sizeEntry({
    config: DEFAULT_RISK_ENGINE_CONFIG,
    account: { balance: '50000.00', peakBalance: '50000.00', todayRealizedPnl: '0.00', openPnl: '0.00', openTrades: [], closedResults: '', haltedForSession: false, dailyPnl: [], tradingDays: 0 },
    alert: { side: 'LONG', orderType: 'market', entryPrice: '21000', stopPrice: '20980', targetPrice: null, quantity: null },
    contract: { root: 'MNQ', pointValue: '2', tickSize: '0.25' },
    market: { price: '21000' },
    caps: { platformMaxContracts: 50, maxContracts: null },
  })
  t.match(decision, { kind: 'size', quantity: 5, riskAtStop: '200.00' })
})
