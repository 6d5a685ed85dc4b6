import t from 'tap'
import { sql, type Database, type Kysely } from '@signals/db'
import { publishAlert } from '../../helper.ts'
import { connectedTrader, mnqEntry, settledRecord } from '../../trading-helper.ts'

// Issue 22, stage 3b (docs/decisions/accounts.md): an entry is sized and refused by its record's account's
// risk configuration (`account_risk_configs`), not by the per-user `risk_engine_configs` row. For a primary
// the two are equal (a trigger mirrors the per-user row); here the primary's row is written apart from it.

async function configs(db: Kysely<Database>, perUser: unknown, account: unknown) {
  await sql`INSERT INTO risk_engine_configs (user_id, config) VALUES ('u-0', ${JSON.stringify(perUser)}::jsonb)
    ON CONFLICT (user_id) DO UPDATE SET config = EXCLUDED.config`.execute(db)
  await sql`UPDATE account_risk_configs r SET config = ${JSON.stringify(account)}::jsonb
    FROM broker_accounts a WHERE a.id = r.account_id AND a.user_id = 'u-0' AND a.is_primary`.execute(db)
}

t.test("an entry is refused by its account's rules and sized by its account's limits", async (t) => {
  const { app, db } = await connectedTrader(t)

  // 50 points of stop are 200 ticks: within the per-user row's minimum, under the account's.
  await configs(db, { limits: { minStopTicks: 4 } }, { limits: { minStopTicks: 1000 } })
  const refused = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, refused)
  t.match(await settledRecord(db, refused.alertId), { status: 'refused', refusal_code: 'stop_too_close', reason: /closer than the 1000-tick minimum/ })

  await configs(db, { limits: { maxContractsPerOrder: 5 } }, { limits: { maxContractsPerOrder: 2 } })
  const sized = mnqEntry({ userId: 'u-0' })
  await publishAlert(app, sized)
  t.match(await settledRecord(db, sized.alertId), { status: 'placed', order_quantity: 2 }, "two contracts: the account's limit per order, not the per-user row's five")
})
