import t from 'tap'
import { publishAlert } from '../../helper.ts'
import { additionalAccount } from '../../repositories/additional-account.ts'
import { connectedTrader, mnqEntry, savePrimaryRiskConfig, settledRecord } from '../../trading-helper.ts'

// Issue 22, stage 3b (docs/decisions/accounts.md): an entry is sized and refused by its record's account's
// risk configuration (`account_risk_configs`): the primary's row here, the one the spec's
// /api/risk-engine/config saves (the per-user `risk_engine_configs` and its mirror are gone). Another
// account's rules of the same trader do not apply to it.

t.test("an entry is refused by its account's rules and sized by its account's limits", async (t) => {
  const { app, db } = await connectedTrader(t)
  await additionalAccount(db, 'u-0', { limits: { minStopTicks: 4, maxContractsPerOrder: 5 } })

  // 50 points of stop are 200 ticks: within the other account's minimum, under the primary's.
  await savePrimaryRiskConfig(db, 'u-0', { limits: { minStopTicks: 1000 } })
  const refused = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, refused)
  t.match(await settledRecord(db, refused.alertId), { status: 'refused', refusal_code: 'stop_too_close', reason: /closer than the 1000-tick minimum/ })

  await savePrimaryRiskConfig(db, 'u-0', { limits: { maxContractsPerOrder: 2 } })
  const sized = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, sized)
  t.match(await settledRecord(db, sized.alertId), { status: 'placed', order_quantity: 2 }, "two contracts: the primary's limit per order, not the other account's five")
})
