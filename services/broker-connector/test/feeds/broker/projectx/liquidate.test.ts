import t, { type Test } from 'tap'
import type { ProjectXPaperBroker } from '@signals/dev-paper-broker-projectx'
import { BrokerError } from '../../../../src/feeds/broker/broker-adapter.ts'
import { API_KEY, netMnq, openSession, projectXBroker } from './helper.ts'

// The flatten (liquidatePosition) against the ProjectX paper broker: a working order of the contract that
// fills during the flatten must not reverse the account. The market moves (through the broker's request
// barrier) as the first Order/cancel arrives, i.e. after the position was read and, on the old order of
// steps, after it was closed.

const CONTRACT = 'CON.F.US.MNQ.Z26'

/** An order placed on the API by the trader's own tool (no tag): the broker's answer. */
async function placeOwnOrder(broker: ProjectXPaperBroker, order: { type: 1 | 4; side: 0 | 1; size: number; limitPrice?: number; stopPrice?: number }): Promise<number> {
  const post = async (path: string, body: object, token?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }
    return (await (await fetch(`${broker.apiUrl}/api/${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as Record<string, unknown>
  }
  const { token } = await post('Auth/loginKey', { userName: 'trader0', apiKey: API_KEY })
  const placed = await post('Order/place', { accountId: 7000, contractId: CONTRACT, ...order }, token as string)
  if (placed.success !== true) throw new Error(`Order/place refused: ${JSON.stringify(placed)}`)
  return placed.orderId as number
}

/** At the first Order/cancel, before the broker carries it out, the market goes to `price`. */
function moveAtFirstCancel(price: string) {
  const race = {
    broker: null as ProjectXPaperBroker | null,
    moved: false,
    onRequest(request: { endpoint: string }): void {
      if (request.endpoint !== 'Order/cancel' || race.moved || race.broker === null) return
      race.moved = true
      race.broker.setPrice('MNQZ6', price)
    },
  }
  return race
}

const workingOf = (broker: ProjectXPaperBroker) => broker.orders().filter((order) => order.accountId === 7000 && order.ordStatus === 'Working')
const closes = (broker: ProjectXPaperBroker) => broker.requests.filter((request) => request.endpoint === 'Position/closeContract').length

/** Trader0's session on an account long 2 MNQZ6 at 21000, the race (if any) listening. */
async function longTwoAt21000(t: Test, race?: ReturnType<typeof moveAtFirstCancel>) {
  const broker = await projectXBroker(t, race ? { onRequest: (request) => race.onRequest(request) } : {})
  broker.setPrice('MNQZ6', '21000')
  if (race) race.broker = broker
  broker.placeManualOrder(7000, { symbol: 'MNQZ6', side: 0, size: 2 })
  t.equal(netMnq(broker), 2, 'long 2')
  const { session } = await openSession(t, broker)
  const contract = await session.findContract('MNQZ6')
  return { broker, session, contract }
}

t.test('a working sell that fills during the flatten leaves the account flat, not short', async (t) => {
  const race = moveAtFirstCancel('21010')
  const { broker, session, contract } = await longTwoAt21000(t, race)
  // The trader's own limit selling one contract, in the position's closing direction (as a partial close's rest).
  await placeOwnOrder(broker, { type: 1, side: 1, size: 1, limitPrice: 21010 })
  t.equal(workingOf(broker).length, 1, 'the sell limit works')

  await session.liquidatePosition(contract.id)
  t.ok(race.moved, 'the market reached the limit during the flatten')
  t.equal(netMnq(broker), 0, 'flat: the limit filled before it could be cancelled, the flatten closed the rest')
  t.same(workingOf(broker), [], 'nothing left working')
  t.equal(closes(broker), 1, 'the one contract left was closed')
})

t.test('a stop that fills between the cancel and the read leaves nothing to close: no error, flat', async (t) => {
  const race = moveAtFirstCancel('20990')
  const { broker, session, contract } = await longTwoAt21000(t, race)
  await placeOwnOrder(broker, { type: 4, side: 1, size: 2, stopPrice: 20990 })

  await session.liquidatePosition(contract.id)
  t.ok(race.moved, 'the market reached the stop during the flatten')
  t.equal(netMnq(broker), 0, 'flat by the stop')
  t.same(workingOf(broker), [], 'nothing left working')
  t.equal(closes(broker), 0, 'nothing was left to close')
})

t.test("a cancel that fails throws before the close: the position stays open, the caller's retry flattens", async (t) => {
  const { broker, session, contract } = await longTwoAt21000(t)
  await placeOwnOrder(broker, { type: 1, side: 1, size: 1, limitPrice: 21050 })
  await placeOwnOrder(broker, { type: 4, side: 1, size: 2, stopPrice: 20950 })
  broker.interfere('Order/cancel', { kind: 'server_error' }, 1)

  const failed = await session.liquidatePosition(contract.id).then(
    () => null,
    (error: unknown) => error,
  )
  t.ok(failed instanceof BrokerError, 'the flatten throws')
  t.equal(netMnq(broker), 2, 'the position is not closed while an order of the contract may still work')
  t.equal(closes(broker), 0)
  t.ok(workingOf(broker).length >= 1, 'what was not cancelled still works')

  await session.liquidatePosition(contract.id)
  t.equal(netMnq(broker), 0, 'the retry flattens')
  t.same(workingOf(broker), [], 'nothing left working')
})
