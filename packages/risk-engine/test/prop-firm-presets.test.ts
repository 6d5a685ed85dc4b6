import t from 'tap'
import { readFile } from 'node:fs/promises'
import { contract } from '@signals/contracts'
import {
  applyPreset,
  crossFieldProblem,
  DEFAULT_RISK_ENGINE_CONFIG,
  fieldsChangedFromPreset,
  PROP_FIRM_PRESETS,
  propFirmPreset,
  RiskEngineConfig,
  sizeEntry,
  type PropFirmPreset,
} from '../src/index.ts'
import { accountWith, configWith, input } from './fixtures.ts'

const configContract = contract(RiskEngineConfig)
const presetOf = (id: string): PropFirmPreset => {
  const preset = propFirmPreset(id)
  if (!preset) throw new Error(`no preset ${id}`)
  return preset
}

// A trader's own configuration that differs from the defaults almost everywhere.
const traderBase = configWith({
  account: { startingBalance: 100_000 },
  trailingDrawdown: { amount: 3_000, mode: 'intraday_realized', stopTrailingAtBalance: null },
  dailyLossLimit: { enabled: true, amount: 2_000, type: 'soft' },
  consistencyRule: { enabled: false, maxBestDayPercent: 30 },
  riskMode: { mode: 'fixed_contracts', fixedContracts: 2 },
})

t.test('every preset gives a valid configuration, from the defaults and from a trader configuration', async (t) => {
  t.ok(PROP_FIRM_PRESETS.length >= 5)
  t.equal(new Set(PROP_FIRM_PRESETS.map((preset) => preset.id)).size, PROP_FIRM_PRESETS.length, 'ids are unique')
  for (const preset of PROP_FIRM_PRESETS) {
    for (const [name, base] of [['defaults', DEFAULT_RISK_ENGINE_CONFIG], ['trader', traderBase]] as const) {
      const { config } = applyPreset(base, preset)
      t.equal(configContract.problem(config), null, `${preset.id} over the ${name} fits the schema`)
      t.equal(crossFieldProblem(config), null, `${preset.id} over the ${name} is consistent`)
    }
    t.ok(preset.sources.length > 0, `${preset.id} names its sources`)
    for (const source of preset.sources) t.match(source.readOn, /^\d{4}-\d{2}(-\d{2})?$/, `${preset.id}: each source has the date it was read`)
    t.equal(preset.accountSize ?? null, (preset.fields['account.startingBalance'] as number | undefined) ?? null, `${preset.id}: the account size is the starting balance it sets`)
  }
})

t.test('applying a preset sets what the table says and keeps every other field', async (t) => {
  const { config, presetValues } = applyPreset(traderBase, presetOf('topstep-50k'))
  t.same(config.account, { startingBalance: 50_000 })
  t.same(config.trailingDrawdown, { amount: 2_000, mode: 'end_of_day', stopTrailingAtBalance: 50_000 })
  t.same(config.dailyLossLimit, { enabled: true, amount: 1_000, type: 'hard' })
  t.same(config.consistencyRule, { enabled: true, maxBestDayPercent: 40 })
  t.same(config.riskMode, traderBase.riskMode, 'a field the preset does not state keeps the trader value')
  t.same(config.limits, traderBase.limits)
  t.same(presetValues, presetOf('topstep-50k').fields)
  t.same(fieldsChangedFromPreset(config, presetValues), [])
})

t.test('a field the trader sends wins over the preset; the lock follows the resulting starting balance', async (t) => {
  const topstep = applyPreset(traderBase, presetOf('topstep-50k'), { dailyLossLimit: { amount: 800, type: 'soft' } })
  t.same(topstep.config.dailyLossLimit, { enabled: true, amount: 800, type: 'soft' })
  t.same(fieldsChangedFromPreset(topstep.config, topstep.presetValues), ['dailyLossLimit.amount', 'dailyLossLimit.type'])

  const lucid = applyPreset(traderBase, presetOf('lucid-flex-funded'))
  t.equal(lucid.config.trailingDrawdown.stopTrailingAtBalance, 100_100, 'initial balance + $100 of the trader 100K account')
  t.equal(lucid.config.trailingDrawdown.amount, 3_000, 'no drawdown amount in the sources: the trader one stays')
  const resized = applyPreset(traderBase, presetOf('lucid-flex-funded'), { account: { startingBalance: 50_000 } })
  t.equal(resized.config.trailingDrawdown.stopTrailingAtBalance, 50_100)
  t.same(fieldsChangedFromPreset(resized.config, resized.presetValues), [])
  const ownLock = applyPreset(traderBase, presetOf('lucid-flex-funded'), { trailingDrawdown: { stopTrailingAtBalance: 100_500 } })
  t.equal(ownLock.config.trailingDrawdown.stopTrailingAtBalance, 100_500)
  t.same(fieldsChangedFromPreset(ownLock.config, ownLock.presetValues), ['trailingDrawdown.stopTrailingAtBalance'])
})

t.test('sizing under the Topstep 50K preset uses its lock and its hard daily loss limit', async (t) => {
  const topstep = applyPreset(DEFAULT_RISK_ENGINE_CONFIG, presetOf('topstep-50k')).config
  // Peak 53,000, balance 51,200. Without a lock the floor is 51,000: room 200 less 10 % = 180 < 200 a contract.
  const account = accountWith({ balance: '51200', peakBalance: '53000' })
  t.match(sizeEntry(input({ account })), { kind: 'refuse', code: 'drawdown_floor' }, 'the defaults (no lock) refuse')
  // Locked at the 50,000 starting balance: room 1,200 less 10 % = 1,080; 1 % of 51,200 = 512; 512 / 200 -> 2.
  t.same(sizeEntry(input({ config: topstep, account })), { kind: 'size', quantity: 2, budget: '512.00', riskAtStop: '400.00', note: null })
  // A $1,000 loss today: the defaults' soft limit refuses; Topstep's (hard) flattens too.
  const lossToday = accountWith({ balance: '49000', todayRealizedPnl: '-1000' })
  t.match(sizeEntry(input({ account: lossToday })), { kind: 'refuse', code: 'daily_loss_limit', flatten: false })
  t.match(sizeEntry(input({ config: topstep, account: lossToday })), { kind: 'refuse', code: 'daily_loss_limit_hard', flatten: true })
})

t.test('docs/risk-engine-config.md lists every preset with the fields it sets and its sources', async (t) => {
  const doc = await readFile(new URL('../../../docs/risk-engine-config.md', import.meta.url), 'utf8')
  t.match(doc, /## Prop-firm presets/)
  for (const preset of PROP_FIRM_PRESETS) {
    const row = doc.split('\n').find((line) => line.startsWith(`| \`${preset.id}\` | ${preset.firm}, ${preset.plan} |`))
    t.ok(row, `${preset.id} has a row`)
    for (const [path, value] of Object.entries(preset.fields)) t.ok(row?.includes(`\`${path}\` ${JSON.stringify(value)}`), `${preset.id}: ${path} ${JSON.stringify(value)}`)
    for (const source of preset.sources) t.ok(row?.includes(`${source.states} (read ${source.readOn})`), `${preset.id}: source ${source.url}`)
  }
})
