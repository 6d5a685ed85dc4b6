import t from 'tap'
import { BrokerError, type BrokerEvent, type BrokerLogin } from '../../../../src/feeds/broker/broker-adapter.ts'
import { LOGIN, openSession, paperBroker, until } from './helper.ts'

// A Tradovate login may hold several accounts. The session trades the one the trader saved (by name or
// id), never "the first active one", and nothing of the login's other accounts reaches the connector.
// The paper broker lists the other account first, as a broker may.

const OTHER = { name: 'trader', password: 'pw-123456', userId: 7, accountId: 71, accountName: 'DEMO71' }
const SAVED = { name: 'trader', password: 'pw-123456', userId: 7, accountId: 70, accountName: 'DEMO70' }
const CLOSED = { name: 'trader', password: 'pw-123456', userId: 7, accountId: 72, accountName: 'DEMO72', active: false }
const saved = (account: string): BrokerLogin<'paper'> => ({ ...LOGIN, account })
const bracket = (tag: string) => ({ tag, action: 'Buy' as const, quantity: 1, entryType: 'Market' as const, entryPrice: null, stopPrice: '20950', targetPrice: '21050' })

/** Whether an event belongs to the account (a fill by the orders the account placed). */
const accountOf = (event: BrokerEvent, orderAccounts: Map<number, number>) =>
  event.type === 'order' ? event.order.accountId : event.type === 'position' ? event.position.accountId : event.type === 'cashBalance' ? event.accountId : orderAccounts.get(event.fill.orderId)

t.test('the session trades the saved account, named by its name or its id, though the login lists another first', async (t) => {
  const broker = await paperBroker(t, { accounts: [OTHER, SAVED], startingBalance: '50000' })
  for (const account of ['DEMO70', '70', ' DEMO70 ']) {
    const { session } = await openSession(t, broker, {}, saved(account))
    t.same(session.snapshot.account, { id: 70, name: 'DEMO70' }, `"${account}" names DEMO70`)
    session.close()
  }
  const { session } = await openSession(t, broker, {}, saved('DEMO70'))
  broker.setPrice('MNQZ6', '21000')
  const placed = await session.placeBracket({ ...bracket('rec-1'), contract: await session.findContract('MNQZ6') })
  t.same(broker.orders().filter((order) => order.id === placed.entryOrderId).map((order) => order.accountId), [70], 'the order went to the saved account')
  t.same((await session.listOrders()).map((order) => order.accountId), [70, 70, 70])
  t.equal(await session.cashBalance(), '50000')
})

t.test('a login without the saved account is refused with the accounts it has; so is a closed account', async (t) => {
  const broker = await paperBroker(t, { accounts: [OTHER, SAVED, CLOSED] })
  const refusal = async (account: string) => {
    try {
      await openSession(t, broker, {}, saved(account))
    } catch (error) {
      return error
    }
    return null
  }
  t.match(await refusal('DEMO99'), { name: 'BrokerError', kind: 'account_not_found', message: 'the broker login has no account "DEMO99" (its active accounts: DEMO71, DEMO70); save one of these as the account' })
  t.match(await refusal('demo70'), { kind: 'account_not_found' }, 'names match exactly')
  t.match(await refusal('DEMO72'), { kind: 'account_not_found', message: 'the broker account DEMO72 is not active (its active accounts: DEMO71, DEMO70); save one of these as the account' })
  t.ok((await refusal('DEMO99')) instanceof BrokerError)
  await until(() => broker.sessions().length === 0)
  t.same(broker.sessions(), [], 'the refused sessions are closed')
})

t.test("the login's other accounts are invisible: their orders, fills, positions and cash never reach the session", async (t) => {
  const broker = await paperBroker(t, { accounts: [OTHER, SAVED] })
  broker.setPrice('MNQZ6', '21000')
  const ours = await openSession(t, broker, {}, saved('DEMO70'))
  const theirs = await openSession(t, broker, {}, saved('DEMO71'))
  const contract = await ours.session.findContract('MNQZ6')

  // The other account trades: an entry fills, its position opens, a liquidation realises a gain (cash moves).
  const other = await theirs.session.placeBracket({ ...bracket('other-1'), contract })
  broker.setPrice('MNQZ6', '21010')
  await theirs.session.liquidatePosition(contract.id)
  await until(() => theirs.events.some((event) => event.type === 'cashBalance'))
  // Then ours: its events arrive after the other account's, on the same login.
  const own = await ours.session.placeBracket({ ...bracket('own-1'), contract })
  await until(() => ours.events.some((event) => event.type === 'fill' && event.fill.orderId === own.entryOrderId))
  await until(() => ours.events.some((event) => event.type === 'position' && event.position.netPos === 1))

  const orderAccounts = new Map(broker.orders().map((order) => [order.id, order.accountId]))
  t.ok(theirs.events.some((event) => event.type === 'fill' && event.fill.orderId === other.entryOrderId), 'the other account did trade')
  t.same(ours.events.map((event) => accountOf(event, orderAccounts)).filter((account) => account !== 70), [], 'every event the session reported is of the saved account')
  t.same(theirs.events.map((event) => accountOf(event, orderAccounts)).filter((account) => account !== 71), [], "and the other session's of its own")
  t.same((await ours.session.listOrders()).map((order) => order.accountId), [70, 70, 70], 'listOrders: the saved account only')

  const later = await openSession(t, broker, {}, saved('DEMO70'))
  const snapshot = later.session.snapshot
  t.same(snapshot.orders.map((order) => order.accountId), [70, 70, 70], "the snapshot's orders: the saved account's")
  t.same(snapshot.fills.map((fill) => fill.orderId), [own.entryOrderId], "its fills: those of the saved account's orders")
  t.same(snapshot.positions.map((position) => [position.accountId, position.netPos]), [[70, 1]])
  t.equal(snapshot.cashBalance, '50000', "its cash: the saved account's, untouched by the other's gain")
  t.equal(broker.balance(71), '50020', 'the other account did gain (10 points x $2)')
})
