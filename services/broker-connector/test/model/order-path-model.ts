import fc from 'fast-check'
import type { Test } from 'tap'
import { randomUUID } from 'node:crypto'
import { connectBus, type Bus } from '@signals/bus'
import { loadConfig } from '@signals/config'
import { FeedCommandV1, contract, type NormalizedAlert } from '@signals/contracts'
import { sql, type Database, type Kysely } from '@signals/db'
import { startPaperBroker, type Interference, type PaperBroker } from '@signals/dev-paper-broker'
import { createTestDatabase, deleteNamespaceStreams, testNamespace, TEST_NATS_URL, type TestDatabase } from '@signals/test-support'
import { buildApp } from '../../src/app.ts'
import { ConfigSchema, type Config } from '../../src/config.ts'
import { brokerControl } from '../broker-controls.ts'
import { PASSWORD } from '../feeds/feed-helper.ts'
import { alertContract, eventually, makeAlert, type App } from '../helper.ts'
import { liveTrader } from '../trading-helper.ts'

// The model test of the whole order path (issue 20, item 8): random sequences of entries, duplicates,
// exits, price moves, broker misbehaviour and connector restarts, with one or two connector instances,
// against the paper broker; the invariants are checked once everything has settled.

/** The trader's own per-order cap (limits.maxContractsPerOrder): no order at the broker may be larger. */
export const ORDER_CAP = 3

/** Short timings so a run settles in seconds (every unknown outcome is settled by its tag or failed within the grace). */
const TIMINGS = {
  BROKER_REQUEST_TIMEOUT_MS: '1000',
  ENTRY_MAX_AGE_MS: '6000',
  ENTRY_OUTCOME_GRACE_MS: '6000',
  ENTRY_SWEEP_INTERVAL_MS: '300',
  ENTRY_SESSION_WAIT_MS: '3000',
  CONSUMER_ACK_WAIT_MS: '2000',
  FLATTEN_SWEEP_MS: '500',
  FEED_SHARDS: '2',
  FEED_LEASE_TTL_MS: '3000',
  FEED_STATUS_REFRESH_MS: '500',
  // The reconciliation with the broker runs often, so a run meets it racing the order path.
  POSITION_RECONCILE_MS: '2000',
}

const TRADERS = [
  { userId: 'u-0', username: 'trader0', accountId: 9000 },
  { userId: 'u-1', username: 'trader1', accountId: 9001 },
] as const

/** Per contract: where its market starts, and one "step" of the model (a quarter of the entries' stop distance). */
const MARKETS = {
  MNQ: { symbol: 'MNQ1!', contract: 'MNQZ6', start: 21000, step: 12.5 },
  MES: { symbol: 'MES1!', contract: 'MESZ6', start: 6000, step: 2.5 },
} as const
type Root = keyof typeof MARKETS
type Side = 'LONG' | 'SHORT'

/** Misbehaviour of the broker's next answer to an endpoint (its request controls, over HTTP). */
const FAULTS = ['slow', 'timeout', 'server_error', 'server_error_carried_out', 'late', 'held', 'drop_before', 'drop_after', 'answer_late', 'answer_never'] as const
type Fault = (typeof FAULTS)[number]
const FAULT_ENDPOINTS = ['order/placeOSO', 'order/liquidateposition', 'order/cancelorder', 'order/list', 'order/modifyorder', 'order/placeOCO', 'order/placeorder'] as const

/**
 * The answer faults (answered late or never while carried out, aimed at target pairs, stops, closes) and the
 * resting limit episodes, drawn only with MODEL_ANSWER_FAULTS=1: with them the model finds a HIGH defect not
 * fixed yet (seed -495680393, a partial close carried out late after an exit's liquidation turned the account
 * over; docs/decisions/targets-breakeven.md), so CI's random runs draw what they drew before until it is.
 */
const ANSWER_FAULTS = process.env.MODEL_ANSWER_FAULTS === '1'
const DRAWN_FAULTS: readonly Fault[] = ANSWER_FAULTS ? FAULTS : FAULTS.filter((fault) => fault !== 'answer_late' && fault !== 'answer_never')
const DRAWN_FAULT_ENDPOINTS: readonly (typeof FAULT_ENDPOINTS)[number][] = ANSWER_FAULTS ? FAULT_ENDPOINTS : FAULT_ENDPOINTS.filter((endpoint) => endpoint !== 'order/placeOCO' && endpoint !== 'order/placeorder')

/**
 * Answer faults on the sends an entry sets off (stop 37's review: a target pair's send answered late or never):
 * `answer_late` is carried out at once and answered past the connector's client timeout (the outcome unknown
 * while the order works), `answer_never` carried out and never answered; `late` and `held` carried out late
 * (timed, or on release), then the 5xx and the cut connection after carrying the request out.
 */
const SEND_FAULTS = ['answer_late', 'answer_never', 'late', 'held', 'server_error_carried_out', 'drop_after'] as const
type SendFault = (typeof SEND_FAULTS)[number]
/** The requests that place or modify orders: target pairs (placeOCO) most, then single orders (stops, closes), stop moves and entries. */
const SEND_ENDPOINTS = ['order/placeOCO', 'order/placeOCO', 'order/placeOCO', 'order/placeorder', 'order/modifyorder', 'order/placeOSO'] as const

/** An answer fault aimed at a send: the `skip`+1-th request to `endpoint` from the entry's alert on (each entry queues its own). */
export interface SendFaultAt {
  endpoint: (typeof SEND_ENDPOINTS)[number]
  skip: number
  fault: SendFault
}

/** How many send faults an entry carries at most (MODEL_SEND_FAULTS; 0 turns them off), each drawn by the seed. */
const SEND_FAULTS_PER_ENTRY = ANSWER_FAULTS ? Number(process.env.MODEL_SEND_FAULTS ?? 2) : 0

/** Past the client's timeout (BROKER_REQUEST_TIMEOUT_MS, 1 s below) and within the outcome grace (6 s). */
const ANSWER_LATE_MS = 2_500

const SEND_INTERFERENCES: Record<SendFault, Interference> = {
  answer_late: { kind: 'unanswered', afterMs: ANSWER_LATE_MS },
  answer_never: { kind: 'unanswered' },
  late: { kind: 'late', afterMs: ANSWER_LATE_MS },
  held: { kind: 'late' },
  server_error_carried_out: { kind: 'server_error', carriedOut: true },
  drop_after: { kind: 'drop', carriedOut: true },
}

export type Command =
  /**
   * A new entry alert; `copies: 2` also publishes the same content under another alert id at the same
   * instant; `fault`: the broker misbehaves on the next order (set up just before the alert is published);
   * `sends`: answer faults aimed at the sends that follow (target pairs, stops, closes, stop moves).
   */
  | { kind: 'entry'; root: Root; side: Side; order: 'market' | 'limit'; copies: 1 | 2; fault: Fault | null; plan?: TargetsPlan; sends?: SendFaultAt[] }
  /** A result alert closing part of the contract's position (`last`: the last entry's), by contracts or percent. */
  | { kind: 'close-part'; root: Root | 'last'; closes: Side | null; part: { quantity: number } | { percent: number } }
  /** An earlier entry alert published again (a redelivery under another message id). */
  | { kind: 'duplicate'; which: number }
  /** A result alert for the contract (`last`: the last entry's). */
  | { kind: 'exit'; root: Root | 'last'; result: 'TP' | 'SL' | 'Exit'; closes: Side | null }
  /** The market moves by `steps` quarter stop distances (stops, targets and limits may fill). */
  | { kind: 'price'; root: Root; steps: number }
  /** Orders of the contract fill at most `lots` per price event from now on (partial fills), or in full (null). */
  | { kind: 'liquidity'; root: Root; lots: number | null }
  | { kind: 'fault'; endpoint: (typeof FAULT_ENDPOINTS)[number]; fault: Fault }
  /** The connector instance is closed and a new one built on the same database and bus. */
  | { kind: 'restart'; instance: number }
  | { kind: 'wait'; ms: number }
  /** Requests the broker holds (`held` faults) are carried out now. */
  | { kind: 'release' }
  /** Waits until no record is `received` or `placing` (the next command meets a settled account). */
  | { kind: 'quiet' }

/**
 * Several targets on an entry (exit plans): each target's contracts (2 or 3 targets, TP1 nearest), and the
 * move to breakeven after TP1 (`breakeven`: its offset in ticks; null: none).
 */
export interface TargetsPlan {
  quantities: number[]
  breakeven: number | null
}

export interface Scenario {
  instances: 1 | 2
  commands: Command[]
}

const root = fc.constantFrom<Root>('MNQ', 'MES')
const side = fc.constantFrom<Side>('LONG', 'SHORT')

const sendFaultArbitrary: fc.Arbitrary<SendFaultAt> = fc.record({ endpoint: fc.constantFrom(...SEND_ENDPOINTS), skip: fc.nat(2), fault: fc.constantFrom(...SEND_FAULTS) })

const entryArbitrary = fc
  .record({
    kind: fc.constant('entry' as const), root, side, order: fc.constantFrom('market' as const, 'limit' as const), copies: fc.constantFrom<1 | 2>(1, 1, 2),
    fault: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: fc.constantFrom(...DRAWN_FAULTS) }),
    sends: fc.array(sendFaultArbitrary, { maxLength: SEND_FAULTS_PER_ENTRY }),
  })
  // No field when none (a scenario recorded before the send faults reads the same).
  .map(({ sends, ...entry }) => (sends.length === 0 ? entry : { ...entry, sends }))

const commandArbitrary: fc.Arbitrary<Command> = fc.oneof(
  { weight: 5, arbitrary: entryArbitrary },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('duplicate' as const), which: fc.nat(20) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('exit' as const), root: fc.constantFrom<Root | 'last'>('last', 'last', 'MNQ', 'MES'), result: fc.constantFrom('TP' as const, 'SL' as const, 'Exit' as const), closes: fc.constantFrom<Side | null>('LONG', 'SHORT', null, null) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('price' as const), root, steps: fc.integer({ min: -8, max: 8 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('liquidity' as const), root, lots: fc.constantFrom<number | null>(1, 2, null) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('fault' as const), endpoint: fc.constantFrom(...DRAWN_FAULT_ENDPOINTS, 'order/placeOSO', 'order/placeOSO'), fault: fc.constantFrom(...DRAWN_FAULTS) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('restart' as const), instance: fc.nat(1) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 2_500 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('quiet' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('release' as const) }) },
)

export const scenarioArbitrary: fc.Arbitrary<Scenario> = fc.record({
  instances: fc.constantFrom<1 | 2>(1, 2),
  // Every run starts with an entry (a run with none tests little).
  commands: fc.tuple(entryArbitrary, fc.array(commandArbitrary, { minLength: 5, maxLength: 16 })).map(([first, rest]) => [first, ...rest]),
})

const targetsPlan: fc.Arbitrary<TargetsPlan> = fc.record({
  quantities: fc.array(fc.integer({ min: 1, max: 2 }), { minLength: 2, maxLength: 3 }),
  breakeven: fc.constantFrom<number | null>(0, 0, 2, null),
})

/** Entries with two or three targets (most of them), or one target as before; mostly at market, so most fill and their exits work. */
const planEntryArbitrary: fc.Arbitrary<Extract<Command, { kind: 'entry' }>> = fc
  .tuple(
    entryArbitrary,
    fc.constantFrom('market' as const, 'market' as const, 'limit' as const),
    fc.oneof({ weight: 4, arbitrary: targetsPlan }, { weight: 1, arbitrary: fc.constant(null) }),
  )
  .map(([entry, order, plan]) => (plan === null ? { ...entry, order } : { ...entry, order, plan }))

const closePartArbitrary = fc.record({
  kind: fc.constant('close-part' as const),
  root: fc.constantFrom<Root | 'last'>('last', 'last', 'MNQ', 'MES'),
  closes: fc.constantFrom<Side | null>('LONG', 'SHORT', null),
  part: fc.oneof(fc.record({ quantity: fc.integer({ min: 1, max: 4 }) }), fc.record({ percent: fc.constantFrom(25, 50, 100) })),
})

/** The order path with exit plans on: the commands above, entries mostly with targets, partial closes, and more price moves (targets and stops fill). */
const exitPlanCommandArbitrary: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: planEntryArbitrary },
  { weight: 3, arbitrary: closePartArbitrary },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('price' as const), root, steps: fc.integer({ min: -8, max: 8 }) }) },
  { weight: 6, arbitrary: commandArbitrary },
)

/**
 * An entry with targets that the market then walks through: placed at market, its record settled, then a
 * few moves of its contract (TP1 is 2 steps away, the stop 4) with maybe a partial close among them. Random
 * commands alone rarely get that far (a later entry is mostly refused while a trade is open).
 */
const targetsEpisodeArbitrary: fc.Arbitrary<Command[]> = fc
  .tuple(planEntryArbitrary, targetsPlan, fc.array(fc.integer({ min: -4, max: 4 }), { minLength: 1, maxLength: 3 }), fc.option(closePartArbitrary, { freq: 2 }))
  .map(([entry, plan, moves, close]) => {
    const prices = moves.map((steps): Command => ({ kind: 'price', root: entry.root, steps }))
    // The partial close names the entry's side when it names one (a close of the other side is a random command's part).
    const closing: Command[] = close === null ? [] : [{ ...close, root: entry.root, closes: close.closes === null ? null : entry.side }]
    return [{ ...entry, order: 'market', plan }, { kind: 'quiet' }, ...prices.slice(0, 1), ...closing, ...prices.slice(1)]
  })

/**
 * A limit entry that rests and fills in parts while an exit goes on (stop 37's review): one lot per price
 * event, the market brought to the limit (its first lot fills), then a partial close or a source exit of its
 * contract, and price events at the limit that fill the rest meanwhile (a short wait among them, maybe).
 */
const restingLimitEpisodeArbitrary: fc.Arbitrary<Command[]> = fc
  .tuple(
    planEntryArbitrary,
    fc.oneof(closePartArbitrary, fc.record({ kind: fc.constant('exit' as const), root: fc.constant('last' as const), result: fc.constantFrom('TP' as const, 'SL' as const, 'Exit' as const), closes: fc.constantFrom<Side | null>('LONG', 'SHORT', null) })),
    fc.integer({ min: 1, max: 3 }),
    fc.option(fc.integer({ min: 0, max: 400 }), { freq: 2 }),
    fc.array(fc.integer({ min: -4, max: 4 }), { maxLength: 2 }),
  )
  .map(([entry, exit, rests, pause, moves]): Command[] => {
    const limit: Command = { ...entry, order: 'limit' }
    const closing: Command = { ...exit, root: entry.root, closes: exit.closes === null ? null : entry.side }
    const rest: Command[] = Array.from({ length: rests }, () => ({ kind: 'price', root: entry.root, steps: 0 }))
    return [
      { kind: 'liquidity', root: entry.root, lots: 1 },
      limit,
      { kind: 'quiet' },
      // The limit is two steps from the market: there now, one lot fills.
      { kind: 'price', root: entry.root, steps: entry.side === 'LONG' ? -2 : 2 },
      closing,
      ...(pause === null ? [] : [{ kind: 'wait', ms: pause } as const]),
      ...rest,
      { kind: 'liquidity', root: entry.root, lots: null },
      ...moves.map((steps): Command => ({ kind: 'price', root: entry.root, steps })),
    ]
  })

export const exitPlanScenarioArbitrary: fc.Arbitrary<Scenario> = fc.record({
  instances: fc.constantFrom<1 | 2>(1, 2),
  commands: fc
    .tuple(
      ANSWER_FAULTS ? fc.oneof({ weight: 2, arbitrary: targetsEpisodeArbitrary }, { weight: 1, arbitrary: restingLimitEpisodeArbitrary }) : targetsEpisodeArbitrary,
      fc.array(
        ANSWER_FAULTS
          ? fc.oneof({ weight: 1, arbitrary: targetsEpisodeArbitrary }, { weight: 1, arbitrary: restingLimitEpisodeArbitrary }, { weight: 4, arbitrary: exitPlanCommandArbitrary.map((command) => [command]) })
          : fc.oneof({ weight: 1, arbitrary: targetsEpisodeArbitrary }, { weight: 4, arbitrary: exitPlanCommandArbitrary.map((command) => [command]) }),
        { minLength: 3, maxLength: 8 },
      ),
    )
    .map(([first, rest]) => [...first, ...rest.flat()]),
})

/** What a world runs with: `exitPlans` turns EXIT_PLANS_ENABLED on, and the stop invariants with it. */
export interface WorldOptions {
  exitPlans?: boolean
}

const feedCommands = contract(FeedCommandV1)

/** The world of one run: a paper broker, a database, a bus namespace, and the connector instances on them. */
export class OrderPathWorld {
  readonly apps: (App | null)[] = []
  readonly alerts: NormalizedAlert[] = []
  readonly #prices = new Map<Root, number>()
  #lastRoot: Root = 'MNQ'

  private constructor(
    readonly broker: PaperBroker,
    readonly database: TestDatabase,
    readonly namespace: string,
    readonly config: Config,
    readonly bus: Bus,
    readonly exitPlans: boolean,
  ) {}

  static async open(instances: 1 | 2, options: WorldOptions = {}): Promise<OrderPathWorld> {
    const exitPlans = options.exitPlans ?? false
    const broker = await startPaperBroker({
      accounts: TRADERS.map((trader, i) => ({ name: trader.username, password: PASSWORD, userId: 100 + i, accountId: trader.accountId, accountName: `DEMO${trader.accountId}` })),
      heartbeatMs: 200,
    })
    const database = await createTestDatabase()
    const namespace = testNamespace()
    const config: Config = loadConfig(ConfigSchema, {
      ...process.env, LOG_LEVEL: 'silent', NODE_ENV: 'test', DATABASE_URL: database.url, BUS_NAMESPACE: namespace,
      PAPER_BROKER_URL: broker.restUrl, PAPER_BROKER_WS_URL: broker.wsUrl, ...TIMINGS,
      ...(exitPlans ? { EXIT_PLANS_ENABLED: 'true', TRAILING_STOP_MIN_GAP_MS: '0' } : {}),
    })
    const bus = await connectBus({ url: TEST_NATS_URL, name: 'order-path-model', namespace })
    const world = new OrderPathWorld(broker, database, namespace, config, bus, exitPlans)
    for (const [root, market] of Object.entries(MARKETS) as [Root, (typeof MARKETS)[Root]][]) world.#setPrice(root, market.start)
    for (let i = 0; i < instances; i++) world.apps.push(await world.#startInstance())
    const db = world.db
    for (const trader of TRADERS) {
      await liveTrader(db, config, { ...trader, riskConfig: { limits: { maxContractsPerOrder: ORDER_CAP, maxOpenTrades: 10 }, dailyLossLimit: { enabled: false } } })
    }
    for (const trader of TRADERS) await world.#feedCommand(trader.userId, 'start')
    await eventually(() => world.#sessionsHeldOnce(), 20_000)
    return world
  }

  get db(): Kysely<Database> {
    const app = this.apps.find((candidate) => candidate !== null)
    if (!app) throw new Error('no connector instance is running')
    return app.db
  }

  async #startInstance(): Promise<App> {
    const app = await buildApp(this.config, { feeds: true })
    await app.ready()
    return app
  }

  #feedCommand(userId: string, action: 'start' | 'stop') {
    const commandId = randomUUID()
    return this.bus.publish(`feeds.${action}`, feedCommands, { version: 1, commandId, userId, action, reason: 'model test', requestedAt: new Date().toISOString() }, { messageId: commandId })
  }

  /** Every trader's session is held by exactly one running instance. */
  #sessionsHeldOnce(): boolean {
    const running = this.apps.filter((app): app is App => app !== null)
    return TRADERS.every((trader) => running.filter((app) => app.feeds.session(trader.userId) !== null).length === 1)
  }

  #setPrice(root: Root, price: number) {
    this.#prices.set(root, price)
    this.broker.setPrice(MARKETS[root].contract, price.toFixed(2))
  }

  #price(root: Root): number {
    return this.#prices.get(root) as number
  }

  async run(command: Command): Promise<void> {
    switch (command.kind) {
      case 'entry':
        return this.#entry(command)
      case 'duplicate': {
        const alert = this.alerts[command.which % Math.max(1, this.alerts.length)]
        if (alert) await this.#publish(alert, `${alert.alertId}-again-${randomUUID()}`)
        return
      }
      case 'exit': {
        const root = command.root === 'last' ? this.#lastRoot : command.root
        const market = MARKETS[root]
        const exit = makeAlert({
          kind: 'result', symbol: market.symbol, root, result: command.result, closes: command.closes, exitPrice: this.#price(root),
          action: null, entryPrice: null, sl: null, tp: null, userId: null,
        })
        return this.#publish(exit)
      }
      case 'close-part':
        return this.#closePart(command)
      case 'price': {
        const price = this.#price(command.root) + command.steps * MARKETS[command.root].step
        return this.#setPrice(command.root, price)
      }
      case 'liquidity':
        return this.broker.setLiquidity(MARKETS[command.root].contract, command.lots)
      case 'fault':
        return this.#fault(command.endpoint, command.fault)
      case 'restart':
        return this.#restart(command.instance % this.apps.length)
      case 'wait':
        await new Promise((resolve) => setTimeout(resolve, command.ms))
        return
      case 'quiet':
        return this.#recordsSettled(20_000)
      case 'release':
        return this.#release()
    }
  }

  async #entry(command: Extract<Command, { kind: 'entry' }>) {
    const market = MARKETS[command.root]
    this.#lastRoot = command.root
    const sign = command.side === 'LONG' ? 1 : -1
    // A limit entry waits half a stop distance away from the market (below it for a long).
    const entryPrice = this.#price(command.root) - (command.order === 'limit' ? sign * 2 * market.step : 0)
    const sl = entryPrice - sign * 4 * market.step
    const alert = command.plan
      ? this.#withTargets(command, command.plan, entryPrice, sl)
      : makeAlert({
          symbol: market.symbol, root: command.root, action: command.side, entryPrice, sl, tp: entryPrice + sign * 8 * market.step,
          raw: { action: command.side === 'LONG' ? 'Buy' : 'Sell', symbol: market.symbol, entryPrice, orderType: command.order },
        })
    this.alerts.push(alert)
    if (command.fault) await this.#fault('order/placeOSO', command.fault)
    for (const send of command.sends ?? []) this.#sendFault(send)
    if (command.copies === 1) return this.#publish(alert)
    // The same content with other whitespace is another alert id at ingest: both arrive at once.
    const copy = { ...alert, alertId: randomUUID() }
    this.alerts.push(copy)
    await Promise.all([this.#publish(alert), this.#publish(copy)])
  }

  /**
   * An entry with two or three targets, TP1 half a stop distance out, then one and two stop distances, as
   * our words (`tp1`, `tp1_qty`, `breakeven_offset_ticks`, docs/alert-formats.md) normalize to.
   */
  #withTargets(command: Extract<Command, { kind: 'entry' }>, plan: TargetsPlan, entryPrice: number, sl: number): NormalizedAlert {
    const market = MARKETS[command.root]
    const sign = command.side === 'LONG' ? 1 : -1
    const targets = plan.quantities.map((quantity, index) => ({ price: entryPrice + sign * [2, 4, 8][index]! * market.step, quantity }))
    const words = Object.fromEntries(targets.flatMap((target, index) => [[`tp${index + 1}`, target.price], [`tp${index + 1}_qty`, target.quantity]]))
    return makeAlert({
      symbol: market.symbol, root: command.root, action: command.side, entryPrice, sl, tp: null,
      exitPlan: { targets, breakeven: plan.breakeven === null ? null : { offsetTicks: plan.breakeven } },
      raw: { action: command.side === 'LONG' ? 'buy' : 'sell', ticker: market.symbol, entryPrice, orderType: command.order, sl, ...words, ...(plan.breakeven === null ? {} : { breakeven_offset_ticks: plan.breakeven }) },
    })
  }

  /** A partial close as the parser normalizes `quantity` or `quantityType: percent_of_position` on an exit word. */
  #closePart(command: Extract<Command, { kind: 'close-part' }>) {
    const root = command.root === 'last' ? this.#lastRoot : command.root
    const market = MARKETS[root]
    const quantity = 'quantity' in command.part ? command.part.quantity : null
    const percent = 'percent' in command.part ? command.part.percent : null
    const exit = makeAlert({
      kind: 'result', symbol: market.symbol, root, result: 'Exit', closes: command.closes, exitPrice: this.#price(root),
      action: null, entryPrice: null, sl: null, tp: null, userId: null, quantity, closePart: { quantity, percent, remaining: null },
    })
    return this.#publish(exit)
  }

  async #publish(alert: NormalizedAlert, messageId = alert.alertId) {
    await this.bus.publish(`alerts.${alert.kind}`, alertContract, alert, { messageId })
  }

  async #fault(endpoint: string, fault: Fault) {
    const late = 200 + Math.floor(Math.random() * 4_000)
    const controls: Record<Fault, Record<string, unknown>> = {
      // Slower than usual, but within the connector's wait; then slower than its wait (an unknown outcome).
      slow: { kind: 'delay', ms: 600 },
      timeout: { kind: 'delay', ms: 1_500 },
      server_error: { kind: 'server_error' },
      server_error_carried_out: { kind: 'server_error', carriedOut: true },
      late: { kind: 'late', afterMs: late },
      // Carried out only when released (a `release` command, or when the run settles), maybe after the grace.
      held: { kind: 'late' },
      drop_before: { kind: 'drop', carriedOut: false },
      drop_after: { kind: 'drop', carriedOut: true },
      // Carried out at once, answered past the client's wait, or never (the connection kept).
      answer_late: { kind: 'unanswered', afterMs: late },
      answer_never: { kind: 'unanswered' },
    }
    await brokerControl(this.broker, { endpoint, ...controls[fault] })
  }

  /** Aims a send fault: `skip` requests to its endpoint answered as usual first (behind what is queued already). */
  #sendFault({ endpoint, skip, fault }: SendFaultAt) {
    if (skip > 0) this.broker.interfere(endpoint, { kind: 'pass' }, skip)
    this.broker.interfere(endpoint, SEND_INTERFERENCES[fault])
  }

  async #release() {
    for (const endpoint of FAULT_ENDPOINTS) await brokerControl(this.broker, { endpoint }, '/dev/controls/release')
  }

  async #restart(index: number) {
    const app = this.apps[index]
    this.apps[index] = null
    await app?.close()
    this.apps[index] = await this.#startInstance()
  }

  /**
   * Lets the broker behave again and waits until everything has settled: no request held, every record out
   * of `received` / `placing`, every flatten done, every session held once.
   */
  async settle(): Promise<void> {
    const controls = `${this.broker.restUrl.replace(/\/v1$/, '')}/dev/controls`
    const response = await fetch(controls, { method: 'DELETE' })
    if (response.status !== 200) throw new Error(`DELETE /dev/controls answered ${response.status}`)
    await this.#release()
    // Requests a timed `late` fault holds: carried out (and answered) when the broker says none is left.
    await eventually(async () => Object.keys(((await (await fetch(controls)).json()) as { scheduled: Record<string, number> }).scheduled).length === 0, 10_000).catch(() => {
      throw new Error('late requests still not carried out 10 s after the run')
    })
    await eventually(() => this.#sessionsHeldOnce(), 30_000).catch(() => {
      throw new Error('not every trader has one broker session after the run')
    })
    await this.#recordsSettled(40_000)
    await eventually(async () => {
      const due = await sql<{ count: number }>`SELECT count(*)::int AS count FROM flatten_requests WHERE done_at IS NULL`.execute(this.db)
      return due.rows[0]?.count === 0
    }, 30_000).catch(() => {
      throw new Error('flatten requests still not done 30 s after the run')
    })
    // The keepers of targets, stops and breakeven have done what the fills asked of them.
    if (this.exitPlans) for (const app of this.apps) await app?.trading.keeper.idle()
  }

  async #recordsSettled(timeoutMs: number): Promise<void> {
    // Every entry published has its record per trader (the consumer may not have got to the last ones yet), and none is unsettled.
    const alertIds = this.alerts.map((alert) => alert.alertId)
    await eventually(async () => {
      const { rows } = await sql<{ records: number; open: number }>`
        SELECT count(*)::int AS records, count(*) FILTER (WHERE status IN ('received', 'placing'))::int AS open
        FROM alerts WHERE alert_id = ANY(${alertIds}::text[])`.execute(this.db)
      return rows[0]?.records === alertIds.length * TRADERS.length && rows[0].open === 0
    }, timeoutMs).catch(() => {
      throw new Error(`records still received or placing after ${timeoutMs / 1000} s`)
    })
  }

  async close(): Promise<void> {
    for (const app of this.apps) await app?.close().catch(() => undefined)
    await this.bus.close().catch(() => undefined)
    await this.broker.close()
    await deleteNamespaceStreams(this.namespace).catch(() => undefined)
    await this.database.drop()
  }
}

/** What a run did, for the log: records by status, entry orders, fills, open positions. */
export async function summary(world: OrderPathWorld): Promise<string> {
  const records = await world.db.selectFrom('alerts').select(['status', 'reason']).where('is_test', '=', false).execute()
  const byStatus = new Map<string, number>()
  for (const record of records) byStatus.set(record.status, (byStatus.get(record.status) ?? 0) + 1)
  const orders = world.broker.orders()
  const entries = orders.filter((order) => order.clOrdId !== null && /^sig-\d+$/.test(order.clOrdId)).length
  const statuses = [...byStatus].map(([status, count]) => `${status} ${count}`).join(', ')
  const reasons = [...new Set(records.map((record) => record.reason).filter((reason) => reason !== null))].map((reason) => reason.slice(0, 70))
  const legs = world.exitPlans ? `, ${exitLegs(orders)}, stops modified ${world.broker.requests.filter((request) => request.endpoint === 'order/modifyorder').length} times` : ''
  return `records: ${statuses || 'none'}; entry orders ${entries}, orders ${orders.length}${legs}, fills ${world.broker.fills().length}, positions ${brokerBook(world.broker).size}; reasons: ${reasons.join(' | ')}`
}

/** How far a run with exit plans went: target pairs sent, targets and stops of pairs filled. */
function exitLegs(orders: ReturnType<PaperBroker['orders']>): string {
  const count = (pattern: RegExp, filled: boolean) => orders.filter((order) => order.clOrdId !== null && pattern.test(order.clOrdId) && (!filled || order.filledQty > 0)).length
  return `target pairs ${count(/\.tp\d+$/, false)}, targets filled ${count(/\.tp\d+$/, true)}, pair stops filled ${count(/\.sl\d+$/, true)}`
}

/** Net contracts per `account:contract` (broker ids), long positive. */
type Book = Map<string, number>

/** The broker's positions. */
function brokerBook(broker: PaperBroker): Book {
  const book: Book = new Map()
  for (const position of broker.positions()) if (position.netPos !== 0) book.set(`${position.accountId}:${position.contractId}`, position.netPos)
  return book
}

/** Our open trades' signed quantities; a trade without broker ids counts under `?` (it cannot match the broker). */
async function tradeBook(db: Kysely<Database>): Promise<Book> {
  const rows = await db.selectFrom('trades').select(['broker_account_id', 'broker_contract_id', 'side', 'quantity']).where('status', '=', 'open').execute()
  const book: Book = new Map()
  for (const row of rows) {
    const key = `${row.broker_account_id ?? '?'}:${row.broker_contract_id ?? '?'}`
    book.set(key, (book.get(key) ?? 0) + (row.side === 'LONG' ? 1 : -1) * Number(row.quantity))
  }
  for (const [key, net] of book) if (net === 0) book.delete(key)
  return book
}

function bookDifferences(broker: Book, trades: Book): string[] {
  const keys = new Set([...broker.keys(), ...trades.keys()])
  return [...keys].filter((key) => (broker.get(key) ?? 0) !== (trades.get(key) ?? 0)).map((key) => `${key}: broker ${broker.get(key) ?? 0}, open trades ${trades.get(key) ?? 0}`)
}

/**
 * The invariants, after `settle`: (a) per account and contract the broker's net position equals our open
 * trades; (b) at most one entry order per record; (c) no order above the cap; (d) every record not placed
 * says why, and has no order at the broker. Fills and late orders reach the trades and records through the
 * feed, so they are given up to 15 s to agree; returns what still broke then, in words.
 */
export async function violations(world: OrderPathWorld): Promise<string[]> {
  let found: string[] = []
  await eventually(async () => {
    found = await check(world)
    return found.length === 0
  }, 15_000).catch(() => undefined)
  return found
}

async function check(world: OrderPathWorld): Promise<string[]> {
  const { broker, db } = world
  const found = bookDifferences(brokerBook(broker), await tradeBook(db)).map((difference) => `(a) position differs from open trades at ${difference}`)
  const entries = new Map<string, number>()
  for (const order of broker.orders()) {
    if (order.clOrdId !== null && /^sig-\d+$/.test(order.clOrdId)) entries.set(order.clOrdId, (entries.get(order.clOrdId) ?? 0) + 1)
    if (order.orderQty > ORDER_CAP) found.push(`(c) order ${order.id} (${order.clOrdId ?? 'untagged'}, ${order.action}) for ${order.orderQty} contracts, above the cap of ${ORDER_CAP}`)
  }
  for (const [tag, count] of entries) if (count > 1) found.push(`(b) ${count} entry orders under ${tag}`)

  const records = await db.selectFrom('alerts').select(['id', 'user_id', 'status', 'reason']).where('is_test', '=', false).execute()
  for (const record of records) {
    if (record.status !== 'placed' && (record.reason === null || record.reason.trim() === '')) found.push(`(d) record ${record.id} (${record.user_id}) is ${record.status} without a reason`)
    // What the trader reads must be what the broker holds: a record not placed has no order at the broker.
    const tag = `sig-${record.id}`
    if (record.status !== 'placed' && entries.has(tag)) found.push(`(d) record ${record.id} is ${record.status} ("${record.reason ?? ''}") but ${tag} is at the broker`)
  }
  // (e) Nobody traded by hand: any difference the reconciliation found was made by the order path itself.
  const discrepancies = await db.selectFrom('position_discrepancies').select(['user_id', 'contract', 'kind', 'broker_qty', 'our_qty', 'action', 'reason']).execute()
  for (const row of discrepancies) found.push(`(e) the reconciliation found ${row.kind} for ${row.user_id} ${row.contract ?? '?'} (broker ${row.broker_qty}, ours ${row.our_qty}): ${row.action}; ${row.reason}`)
  if (world.exitPlans) found.push(...(await stopsAndSides(world)))
  return found
}

/** Working stops' remaining contracts per `account:contract` (our stop tags: `sig-N.sl`, `sig-N.slK`), signed as the position they close. */
function stopBook(broker: PaperBroker): Book {
  const book: Book = new Map()
  for (const order of broker.orders()) {
    if (order.ordStatus !== 'Working' || order.clOrdId === null || !/^sig-\d+\.sl\d*$/.test(order.clOrdId)) continue
    const key = `${order.accountId}:${order.contractId}`
    book.set(key, (book.get(key) ?? 0) + (order.action === 'Sell' ? 1 : -1) * (order.orderQty - order.filledQty))
  }
  return book
}

/**
 * With exit plans: (f) the working stops never close more than the position held, nor on the wrong side,
 * and cover all of it (every entry of the model has a stop); (g) no account holds the side opposite to its
 * open trades (a target or stop that closed more than held would turn it over).
 */
async function stopsAndSides({ broker, db }: OrderPathWorld): Promise<string[]> {
  const found: string[] = []
  const positions = brokerBook(broker)
  const stops = stopBook(broker)
  for (const key of new Set([...positions.keys(), ...stops.keys()])) {
    const held = positions.get(key) ?? 0
    const stopped = stops.get(key) ?? 0
    if (stopped !== 0 && (Math.sign(stopped) !== Math.sign(held) || Math.abs(stopped) > Math.abs(held))) found.push(`(f) at ${key} working stops close ${stopped} of a position of ${held}`)
    else if (Math.abs(stopped) < Math.abs(held)) found.push(`(f) at ${key} working stops cover ${Math.abs(stopped)} of the ${Math.abs(held)} contracts held`)
  }
  const sides = await db.selectFrom('trades').select(['broker_account_id', 'broker_contract_id', 'side']).where('status', '=', 'open').execute()
  for (const [key, held] of positions) {
    const opposite = sides.filter((trade) => `${trade.broker_account_id}:${trade.broker_contract_id}` === key && (trade.side === 'LONG') !== held > 0)
    if (opposite.length > 0) found.push(`(g) at ${key} the broker holds ${held} while ${opposite.length} open trade(s) are ${opposite[0]!.side}`)
  }
  return found
}

/** A case that once failed: replayed before the random runs, by its seed and path (or its recorded scenario). */
export interface Regression {
  seed: number
  path: string
  what: string
  /** The defect is not fixed yet: skipped unless MODEL_OPEN=1 (so the file stays cheap meanwhile). */
  open?: true
  scenario: Scenario
}

/**
 * The model's runner, for order-path.test.ts and order-path-exit-plans.test.ts: each regression replayed
 * first (by its fast-check `seed` and `path` while the arbitraries still generate the scenario recorded
 * beside it, else the recorded scenario itself, as an example), then `runs` random runs (MODEL_RUNS;
 * MODEL_SEED and MODEL_PATH replay a case; MODEL_VERBOSE=1 logs each run). No shrinking: a run takes seconds,
 * and the seed and path replay the failing case as it was. A run holds when, once settled, no invariant is broken.
 */
export function runModel(t: Test, model: { arbitrary: fc.Arbitrary<Scenario>; regressions: readonly Regression[]; runs: number; world?: WorldOptions; what: string }): void {
  const holds = async (scenario: Scenario): Promise<void> => {
    const world = await OrderPathWorld.open(scenario.instances, model.world)
    try {
      for (const command of scenario.commands) await world.run(command)
      await world.settle()
      const broken = await violations(world)
      if (process.env.MODEL_VERBOSE) t.comment(`${JSON.stringify(scenario)}\n${await summary(world)}`)
      if (broken.length > 0) throw new Error(broken.join('\n'))
    } finally {
      await world.close()
    }
  }
  const property = fc.asyncProperty(model.arbitrary, holds)

  for (const regression of model.regressions) {
    const skip = regression.open === true && !process.env.MODEL_OPEN ? 'an open defect: replay it with MODEL_OPEN=1' : false
    t.test(`regression seed ${regression.seed} path ${regression.path}: ${regression.what}`, { skip }, async (t) => {
      const { seed, path, scenario } = regression
      const generated = fc.sample(model.arbitrary, { seed, path, numRuns: 1 })[0]
      if (JSON.stringify(generated) === JSON.stringify(scenario)) {
        await t.resolves(fc.assert(property, { seed, path, numRuns: 1, endOnFailure: true }), 'replayed by its seed and path')
      } else {
        await t.resolves(fc.assert(property, { examples: [[scenario]], numRuns: 1, endOnFailure: true }), 'the recorded scenario replayed (the arbitraries changed since it was found)')
      }
    })
  }

  t.test(`${model.runs} random runs of ${model.what} keep its invariants`, async (t) => {
    const seed = process.env.MODEL_SEED === undefined ? Date.now() ^ (Math.random() * 0x100000000) : Number(process.env.MODEL_SEED)
    const started = Date.now()
    const details = await fc.check(property, { numRuns: model.runs, seed, path: process.env.MODEL_PATH, endOnFailure: true })
    t.comment(`${details.numRuns} runs in ${((Date.now() - started) / 1000).toFixed(1)} s, seed ${seed}`)
    const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)
    t.notOk(details.failed, details.failed ? `seed ${details.seed}, path "${details.counterexamplePath}": ${error}\n${JSON.stringify(details.counterexample)}` : 'every run kept the invariants')
  })
}
