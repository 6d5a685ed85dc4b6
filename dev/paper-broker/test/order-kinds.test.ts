import t, { type Test } from 'tap'
import { startPaperBroker, type PaperBroker } from '../src/index.ts'
import { messages, post, syncedSocket } from './wire-client.ts'

// Stop, stop-limit and trailing orders, order/modifyorder and fills in parts, driven over the socket as
// Tradovate documents them (order/placeorder, order/placeOSO, order/modifyorder; props events).
const account = { name: 'trader', password: 'pw-123456', userId: 7, accountId: 70, accountName: 'DEMO70' }
const common = { accountSpec: 'DEMO70', accountId: 70, symbol: 'MNQZ6', timeInForce: 'Day', isAutomated: true }

interface Entity {
  id: number
  orderId?: number
  ordStatus?: string
  commandType?: string
  orderQty?: number
  price?: number
  stopPrice?: number
  pegDifference?: number
  action?: string
  qty?: number
  netPos?: number
  realizedPnL?: number
}

/** A trading socket and a readable line per event: `order <label> <status>`, `version <label> ...`, `fill ...`. */
async function trader(t: Test) {
  const broker = await startPaperBroker({ accounts: [account], heartbeatMs: 1_000 })
  t.teardown(() => broker.close())
  const client = await syncedSocket(broker.restUrl, broker.wsUrl, account)
  t.teardown(() => client.socket.close())
  const labels = new Map<number, string>()
  const name = (id: number | undefined) => labels.get(id ?? -1) ?? String(id)
  const line = ({ entityType, entity }: { entityType: string; entity: Entity }) => {
    switch (entityType) {
      case 'command':
        return `command ${name(entity.orderId)} ${entity.commandType}`
      case 'order':
        return `order ${name(entity.id)} ${entity.ordStatus}`
      case 'orderVersion':
        return `version ${name(entity.orderId)} qty=${entity.orderQty}${entity.price === undefined ? '' : ` price=${entity.price}`}${entity.stopPrice === undefined ? '' : ` stop=${entity.stopPrice}`}${entity.pegDifference === undefined ? '' : ` peg=${entity.pegDifference}`}`
      case 'fill':
        return `fill ${name(entity.orderId)} ${entity.action} ${entity.qty}@${entity.price}`
      case 'position':
        return `position ${entity.netPos}`
      default:
        return `cash ${entity.realizedPnL}`
    }
  }
  /** The events of the next frame that carries any. */
  const events = async () => messages(await client.next((f) => f.startsWith('a') && f.includes('"props"'))).map((m) => line((m as { d: { entityType: string; entity: Entity } }).d))
  /** A command's answer (`d`). */
  const ask = async (endpoint: string, body: unknown) => (await client.answer(client.send(endpoint, body))).d as Record<string, unknown>
  /** Places an order, names it, and returns its id with the events it caused. */
  const place = async (label: string, body: Record<string, unknown>) => {
    const answer = await ask('order/placeorder', { ...common, ...body })
    labels.set(answer.orderId as number, label)
    return { id: answer.orderId as number, events: await events() }
  }
  const move = async (price: string) => {
    broker.setPrice('MNQZ6', price)
    return events()
  }
  return { broker, ask, events, place, move, labels }
}

const status = (broker: PaperBroker, id: number) => broker.orders().find((order) => order.id === id)

t.test('stop and stop-limit entries trigger on the market price; a stop-limit whose limit is passed rests as a limit', async (t) => {
  const { broker, place, move } = await trader(t)
  broker.setPrice('MNQZ6', '21000')
  const stopLimit = await place('sl', { action: 'Buy', orderQty: 1, orderType: 'StopLimit', stopPrice: 21010, price: 21012 })
  t.same(stopLimit.events, ['command sl New', 'order sl Working', 'version sl qty=1 price=21012 stop=21010'])
  broker.setPrice('MNQZ6', '21005')
  t.same(broker.fills(), [], 'the stop is not reached')
  broker.setPrice('MNQZ6', '21015')
  t.same(broker.fills(), [], 'the stop is reached, the limit is not: it rests as a buy limit at 21012')
  t.equal(status(broker, stopLimit.id)?.ordStatus, 'Working')
  t.same(await move('21009'), ['order sl Filled', 'fill sl Buy 1@21012', 'position 1'], 'triggered: a move back under its limit fills it at the limit, though under the stop now')

  const stop = await place('stop', { action: 'Sell', orderQty: 1, orderType: 'Stop', stopPrice: 20990 })
  t.same(stop.events, ['command stop New', 'order stop Working', 'version stop qty=1 stop=20990'])
  t.same(await move('20985'), ['order stop Filled', 'fill stop Sell 1@20990', 'position 0', 'cash -44'], 'a stop fills at its stop on a move')

  const both = await place('both', { action: 'Sell', orderQty: 1, orderType: 'StopLimit', stopPrice: 20980, price: 20975 })
  t.same(both.events.slice(1), ['order both Working', 'version both qty=1 price=20975 stop=20980'])
  t.same(await move('20978'), ['order both Filled', 'fill both Sell 1@20978', 'position -1'], 'stop and limit reached by one move: it fills at the price, as a limit marketable when it becomes active')
})

t.test('trailing stops follow the market in their favour only: as a bracket leg and on their own', async (t) => {
  const { broker, ask, events, labels, place, move } = await trader(t)
  broker.setPrice('MNQZ6', '21000')
  const oso = await ask('order/placeOSO', {
    ...common,
    action: 'Buy',
    orderQty: 1,
    orderType: 'Market',
    bracket1: { action: 'Sell', orderType: 'TrailingStop', pegDifference: -10 },
    bracket2: { action: 'Sell', orderType: 'Limit', price: 21050 },
  })
  labels.set(oso.orderId as number, 'entry').set(oso.oso1Id as number, 'trail').set(oso.oso2Id as number, 'target')
  t.same(
    (await events()).filter((event) => !event.startsWith('command')),
    ['order entry Working', 'version entry qty=1', 'order trail Suspended', 'version trail qty=1 peg=10', 'order target Suspended', 'version target qty=1 price=21050', 'order entry Filled', 'fill entry Buy 1@21000', 'position 1', 'version trail qty=1 stop=20990 peg=10', 'order trail Working', 'order target Working'],
    'the trailing leg starts 10 points under the market when the entry fills (the sign of pegDifference is not used)',
  )
  t.same(await move('21020'), ['version trail qty=1 stop=21010 peg=10'], 'the market rises: the stop follows')
  broker.setPrice('MNQZ6', '21015')
  t.equal(broker.orders().find((order) => order.id === oso.oso1Id)?.ordStatus, 'Working', 'a fall does not move it back, nor reach it')
  t.same(await move('21007'), ['order trail Filled', 'fill trail Sell 1@21010', 'position 0', 'cash 20', 'order target Canceled'], 'reached: filled at its stop; the target is cancelled (OCO)')

  const own = await place('own', { action: 'Buy', orderQty: 1, orderType: 'TrailingStop', pegDifference: 5 })
  t.same(own.events, ['command own New', 'order own Working', 'version own qty=1 peg=5', 'version own qty=1 stop=21012 peg=5'], 'a buy trailing stop placed alone starts 5 above the market')
  t.same(await move('21000'), ['version own qty=1 stop=21005 peg=5'], 'the market falls: a buy stop follows it down')
  t.same(await move('21006'), ['order own Filled', 'fill own Buy 1@21005', 'position 1'])

  const limit = await place('tsl', { action: 'Sell', orderQty: 1, orderType: 'TrailingStopLimit', stopPrice: 20996, price: 20994, pegDifference: 10 })
  t.same(limit.events.slice(2), ['version tsl qty=1 price=20994 stop=20996 peg=10'], 'its stop is within 10 of the market: it stays')
  t.same(await move('21010'), ['version tsl qty=1 price=20998 stop=21000 peg=10'], 'a trailing stop-limit: the limit keeps its distance from the stop')
  broker.setPrice('MNQZ6', '20995')
  t.same(broker.fills().length, 3, 'stop reached, limit (sell at 20998) not: it rests as a limit and trails no more')
  t.same(await move('21030'), ['order tsl Filled', 'fill tsl Sell 1@20998', 'position 0', 'cash 6'], 'a resting limit fills at its limit')
})

t.test('order/modifyorder: prices, quantity and distance change with a Modify command and a new version; a done order is TooLate', async (t) => {
  const { broker, ask, events, place } = await trader(t)
  broker.setPrice('MNQZ6', '21000')
  const modify = async (body: Record<string, unknown>) => {
    const answer = await ask('order/modifyorder', { isAutomated: true, ...body })
    return 'commandId' in answer ? events() : answer
  }
  const limit = await place('limit', { action: 'Buy', orderQty: 2, orderType: 'Limit', price: 20950 })
  t.same(await modify({ orderId: limit.id, orderQty: 3, orderType: 'Limit', price: 20960 }), ['command limit Modify', 'version limit qty=3 price=20960'])
  const stopLimit = await place('sl', { action: 'Sell', orderQty: 1, orderType: 'StopLimit', stopPrice: 20980, price: 20978 })
  t.same(await modify({ orderId: stopLimit.id, orderQty: 1, orderType: 'StopLimit', stopPrice: 20985, price: 20983 }), ['command sl Modify', 'version sl qty=1 price=20983 stop=20985'])
  const trailing = await place('trail', { action: 'Sell', orderQty: 1, orderType: 'TrailingStop', pegDifference: 10 })
  t.same(trailing.events.at(-1), 'version trail qty=1 stop=20990 peg=10')
  t.same(await modify({ orderId: trailing.id, orderQty: 2, orderType: 'TrailingStop', pegDifference: 4 }), ['command trail Modify', 'version trail qty=2 stop=20996 peg=4'], 'a new distance puts the stop that far from the market now')
  t.same(await modify({ orderId: trailing.id, orderQty: 2, orderType: 'TrailingStop', stopPrice: 20998 }), ['command trail Modify', 'version trail qty=2 stop=20998 peg=4'], 'its stop can be set too (here nearer than its distance)')
  t.same(await modify({ orderId: trailing.id, orderQty: 2, orderType: 'TrailingStop', stopPrice: 20980 }), ['command trail Modify', 'version trail qty=2 stop=20980 peg=4', 'version trail qty=2 stop=20996 peg=4'], 'a stop set further than its distance from the market trails up at once')
  t.same(await modify({ orderId: limit.id, orderQty: 3, orderType: 'Limit', price: 21000 }), ['command limit Modify', 'version limit qty=3 price=21000', 'order limit Filled', 'fill limit Buy 3@21000', 'position 3'], 'made marketable: it fills')
  t.same(await modify({ orderId: limit.id, orderQty: 3, orderType: 'Limit', price: 20990 }), { failureReason: 'TooLate', failureText: `order ${limit.id} is Filled` })
  t.same(await modify({ orderId: stopLimit.id, orderQty: 1, orderType: 'Stop', stopPrice: 20985 }), { failureReason: 'Unsupported', failureText: `order ${stopLimit.id} is a StopLimit order; its type cannot be changed` })
  t.same(await modify({ orderId: trailing.id, orderQty: 2, orderType: 'TrailingStop', pegDifference: 0.1 }), { failureReason: 'InvalidPrice', failureText: 'price 0.1 is not on the MNQZ6 tick (0.25)' })
  t.same(await modify({ orderId: trailing.id, orderQty: 2, orderType: 'TrailingStop', pegDifference: 'x' }), { failureReason: 'InvalidPrice', failureText: 'price, stopPrice and pegDifference must be numbers' })
})

t.test('POST /dev/partial-fills: the next fill of an order comes in parts, each a fill with its order event; the position and the bracket follow', async (t) => {
  const { broker, ask, events, labels, move } = await trader(t)
  const base = broker.restUrl.replace(/\/v1$/, '')
  broker.setPrice('MNQZ6', '21000')
  const oso = await ask('order/placeOSO', { ...common, action: 'Buy', orderQty: 5, orderType: 'Limit', price: 20990, bracket1: { action: 'Sell', orderType: 'Stop', stopPrice: 20950 } })
  labels.set(oso.orderId as number, 'entry').set(oso.oso1Id as number, 'stop')
  await events()
  const split = await post(`${base}/dev/partial-fills`, { orderId: oso.orderId, lots: 2 })
  t.equal(split.status, 200)
  t.same(await split.json(), { orderId: oso.orderId, lots: 2 })
  t.same(await move('20985'), [
    'fill entry Buy 2@20990',
    'position 2',
    'version stop qty=2 stop=20950',
    'order stop Working',
    'order entry Working',
    'fill entry Buy 2@20990',
    'position 4',
    'version stop qty=4 stop=20950',
    'order entry Working',
    'order entry Filled',
    'fill entry Buy 1@20990',
    'position 5',
    'version stop qty=5 stop=20950',
  ])
  t.same(broker.orders().map((order) => `${order.filledQty}/${order.orderQty} ${order.ordStatus}`), ['5/5 Filled', '0/5 Working'])

  await post(`${base}/dev/partial-fills`, { orderId: oso.oso1Id, lots: 3 })
  t.same(await move('20940'), ['fill stop Sell 3@20950', 'position 2', 'cash -240', 'order stop Working', 'order stop Filled', 'fill stop Sell 2@20950', 'position 0', 'cash -400'])

  for (const [body, text] of [
    [{ lots: 2 }, 'orderId is required (the id of a working or suspended order)'],
    [{ orderId: oso.orderId }, 'lots is required (a whole number of at least 1)'],
    [{ orderId: 999_999, lots: 2 }, 'order 999999 not found'],
    [{ orderId: oso.orderId, lots: 2 }, `order ${String(oso.orderId)} is Filled; only a working or suspended order can fill`],
    [{ orderId: oso.oso1Id, lots: 0 }, `order ${String(oso.oso1Id)} is Filled; only a working or suspended order can fill`],
  ] as const) {
    const refused = await post(`${base}/dev/partial-fills`, body)
    t.equal(refused.status, 400)
    t.same(await refused.json(), { errorText: text })
  }
  const open = await ask('order/placeorder', { ...common, action: 'Buy', orderQty: 1, orderType: 'Limit', price: 20000 })
  t.same(await (await post(`${base}/dev/partial-fills`, { orderId: open.orderId, lots: 1.5 })).json(), { errorText: 'lots must be a whole number of at least 1' })
  t.throws(() => broker.splitNextFill(open.orderId as number, 0), { message: 'lots must be a whole number of at least 1' })
})
