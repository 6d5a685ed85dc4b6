import { setTimeout as sleep } from 'node:timers/promises'
import type { Session } from './traders.ts'

/** What the webhook senders saw. */
export interface WebhookTally {
  entryIds: string[]
  resultIds: string[]
  /** Alert ids ingest answered 200 for. */
  accepted: Set<string>
  /** Answers other than 200 (after retries), by status; 0 = no answer. */
  refused: Map<number, number>
  /** Resends after a 503 or no answer, as TradingView does. */
  resends: number
}

/** What the web API answered, by path and status. */
export type ApiTally = Map<string, number>

const MARKET_SYMBOL = 'MNQZ6'
const TICK = 0.25

/** Sends webhooks round-robin to the ingest instances; a 503 or no answer is resent (to the next one). */
export class WebhookSender {
  #next = 0
  readonly tally: WebhookTally = { entryIds: [], resultIds: [], accepted: new Set(), refused: new Map(), resends: 0 }

  constructor(private readonly ingestUrls: string[]) {}

  async send(kind: 'entry' | 'result', alertId: string, body: Record<string, unknown>): Promise<void> {
    ;(kind === 'entry' ? this.tally.entryIds : this.tally.resultIds).push(alertId)
    let status = 0
    for (let attempt = 0; attempt < 3; attempt++) {
      if (attempt > 0) {
        this.tally.resends++
        await sleep(1_000)
      }
      const url = this.ingestUrls[this.#next++ % this.ingestUrls.length] as string
      status = await fetch(`${url}/webhook/alert`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, alertId }) }).then(
        (response) => response.status,
        () => 0,
      )
      if (status !== 503 && status !== 0) break
    }
    if (status === 200) this.tally.accepted.add(alertId)
    else this.tally.refused.set(status, (this.tally.refused.get(status) ?? 0) + 1)
  }
}

export interface LoadOptions {
  runId: string
  /** Entry alerts per second; each is followed half a period later by a result alert for the symbol. */
  entriesPerSecond: number
  durationMs: number
  brokerUrl: string
  /** The user_id the entries name (they fan out to every live trader). */
  ownerUserId: string
  traders: Session[]
  sender: WebhookSender
  apiTally: ApiTally
}

/** A random walk of the paper market, moved through the broker's `/dev/prices` as an operator would. */
class Market {
  price = 21_000
  constructor(private readonly pricesUrl: string) {}

  async move(): Promise<number> {
    this.price = Math.round((this.price + (Math.random() - 0.5) * 8) / TICK) * TICK
    const response = await fetch(this.pricesUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ symbol: MARKET_SYMBOL, price: this.price.toFixed(2) }) })
    if (!response.ok) throw new Error(`/dev/prices answered ${response.status}: ${await response.text()}`)
    return this.price
  }
}

/** One trader looks at their alerts, trades and live-trading status through the gateway. */
async function browse(trader: Session, tally: ApiTally): Promise<void> {
  for (const path of ['/api/alerts', '/api/trades', '/api/live-trading-status']) {
    const { status } = await trader.call('GET', path).catch(() => ({ status: 0 }))
    const key = `${path} ${status}`
    tally.set(key, (tally.get(key) ?? 0) + 1)
  }
}

/**
 * The steady load: each period moves the market, sends an entry alert (a bracket 6 points either side,
 * so the market fills one leg now and then), and half a period later moves the market again and sends
 * the result alert that closes what is still open; one trader browses the web API each period. Nothing
 * waits for an answer before the next step, so a slow service cannot lower the rate.
 */
export async function runLoad(options: LoadOptions): Promise<void> {
  const market = new Market(`${options.brokerUrl.replace(/\/v1$/, '')}/dev/prices`)
  const periodMs = 1_000 / options.entriesPerSecond
  const started = Date.now()
  const pending = new Set<Promise<void>>()
  const track = (work: Promise<void>) => {
    pending.add(work)
    void work.finally(() => pending.delete(work))
  }
  for (let k = 0; Date.now() - started < options.durationMs; k++) {
    await sleep(Math.max(0, started + k * periodMs - Date.now()))
    const price = await market.move()
    const side = k % 2 === 0 ? 1 : -1
    const entry = { action: side > 0 ? 'Buy' : 'Sell', symbol: 'MNQ1!', entryPrice: price, sl: price - side * 6, tp: price + side * 6, user_id: options.ownerUserId, indicator: 'Soak' }
    track(options.sender.send('entry', `soak-${options.runId}-e${k}`, entry))
    track(browse(options.traders[k % options.traders.length] as Session, options.apiTally))
    await sleep(Math.max(0, started + (k + 0.5) * periodMs - Date.now()))
    const exitPrice = await market.move()
    track(options.sender.send('result', `soak-${options.runId}-r${k}`, { symbol: 'MNQ1!', result: 'Exit', exitPrice }))
  }
  await Promise.all(pending)
}
