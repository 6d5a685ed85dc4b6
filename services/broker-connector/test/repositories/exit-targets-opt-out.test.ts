import t from 'tap'
import type { Database, Kysely } from '@signals/db'
import { otherSourcesQuantity, targetTrades, type ExitScope } from '../../src/repositories/exit-targets.ts'
import { build, seedUsers } from '../helper.ts'

// A spec-route exit carried out at the broker for a trader who opted out of the default source
// (docs/decisions/signal-sources.md): a trade no record opened is no longer the spec route's, so it is
// left at the broker (counted as another's), while a trade the spec route's own entry opened is its.

async function openTrade(db: Kysely<Database>, userId: string, withRecord: boolean, quantity: string): Promise<number> {
  const record = withRecord
    ? await db
        .insertInto('alerts')
        .values({ alert_id: crypto.randomUUID(), user_id: userId, owner_user_id: userId, symbol: 'MNQ1!', root: 'MNQ', action: 'LONG', raw_data: '{}', received_at: new Date(Date.now() - 60_000) })
        .returning('id')
        .executeTakeFirstOrThrow()
    : undefined
  const trade = await db
    .insertInto('trades')
    .values({
      user_id: userId, alert_record_id: record?.id ?? null, symbol: 'MNQZ6', root: 'MNQ', side: 'LONG', quantity, entry_price: '21000', status: 'open',
      opened_at: new Date(Date.now() - 60_000), broker: 'paper', environment: 'demo', broker_account_id: 7, broker_contract_id: 42, contract: 'MNQZ6',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return trade.id
}

t.test("a spec-route exit at the broker: an opted-out trader's record-less trade is left, the spec route's own is closed", async (t) => {
  const { db } = await build(t, {}, { consumers: false })
  await seedUsers(db, 1, { prefix: 'u' })
  const fromSpec = await openTrade(db, 'u-0', true, '1')
  const withoutRecord = await openTrade(db, 'u-0', false, '2')
  const scope: ExitScope & { source: { id: null }; side: 'LONG' } = {
    userId: 'u-0', account: { broker: 'paper', environment: 'demo', accountId: 7 }, contractId: 42, side: 'LONG', signalAt: new Date(), source: { id: null },
  }
  t.same((await targetTrades(db, scope)).map((trade) => trade.id), [fromSpec, withoutRecord], 'subscribed: every trade of no source is the spec route\'s, as before')
  t.equal(await otherSourcesQuantity(db, scope), 0, 'and nothing is left at the broker')

  await db.insertInto('default_source_opt_outs').values({ user_id: 'u-0' }).execute()
  t.same((await targetTrades(db, scope)).map((trade) => trade.id), [fromSpec], 'opted out: only the trade its own entry opened')
  t.equal(await otherSourcesQuantity(db, scope), 2, "the record-less trade's 2 contracts stay at the broker")
})
