import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import { alertIdOf } from '../../services/ingest/src/alert-id.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** Six processes start on two loaded cores while the suite runs beside them: a start under tsx has taken over 90 s there. */
const START_WAIT_MS = 180_000
const MAX_STARTS = 3

/** A service as operators run it: its own process, from its main.ts. */
export class ServiceProcess {
  #child: ChildProcess | undefined

  constructor(
    readonly service: 'ingest' | 'broker-connector',
    readonly port: number,
    readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  /**
   * Starts the process and waits until its /ready answers 200. A process that exits before it is ready is
   * started again, as an orchestrator restarts a pod (at most three starts), and what it printed is written
   * to this test's stderr; a wait that runs out says what /ready last answered and what each start printed.
   * Why: right after a three-node cluster forms, a connector's start has hung on it and exited (its close cut
   * at 10 s) on a loaded machine, once in several CI runs; what this test proves begins once the services run.
   */
  async start(): Promise<void> {
    const deadline = Date.now() + START_WAIT_MS
    const exits: string[] = []
    for (let attempt = 1; ; attempt++) {
      const started = this.#spawn()
      const outcome = await this.#untilReady(started, deadline)
      if (outcome.ready) return
      if (!outcome.exited || attempt === MAX_STARTS) {
        throw new Error(`${this.service} on port ${this.port} not ready (start ${attempt} of ${MAX_STARTS}): ${outcome.why}; earlier starts: ${exits.join(' | ') || 'none'}`)
      }
      exits.push(outcome.why)
      process.stderr.write(`${this.service} on port ${this.port}: start ${attempt} ended before it was ready, started again: ${outcome.why}\n`)
    }
  }

  #spawn(): { child: ChildProcess; printed: () => string } {
    const child = spawn(process.execPath, ['--import', 'tsx', `services/${this.service}/src/main.ts`], {
      cwd: ROOT,
      env: { ...process.env, ...this.env, [this.service === 'ingest' ? 'INGEST_PORT' : 'BROKER_CONNECTOR_PORT']: String(this.port) },
      // A pipe of this test's, never the runner's own stderr: a process outliving a killed test must not hold
      // the runner's output open.
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.#child = child
    // Its log lines (stdout, at LOG_LEVEL) and stderr, the last 4,000 characters: a start that fails says why.
    let printed = ''
    const keep = (chunk: Buffer) => {
      printed = (printed + chunk.toString()).slice(-4000)
    }
    child.stdout?.on('data', keep)
    child.stderr?.on('data', keep)
    return { child, printed: () => printed }
  }

  async #untilReady(started: { child: ChildProcess; printed: () => string }, deadline: number): Promise<{ ready: boolean; exited: boolean; why: string }> {
    const { child } = started
    let lastAnswer = 'none yet'
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        return { ready: false, exited: true, why: `exited (${child.exitCode ?? child.signalCode}): ${started.printed()}` }
      }
      const response = await fetch(`${this.url}/ready`).catch((error: unknown) => {
        lastAnswer = String(error)
        return undefined
      })
      if (response) lastAnswer = `${response.status} ${await response.text().catch(() => '')}`
      if (response?.status === 200) return { ready: true, exited: false, why: '' }
      if (Date.now() > deadline) return { ready: false, exited: false, why: `timed out; /ready last answered: ${lastAnswer}; printed: ${started.printed()}` }
      await sleep(200)
    }
  }

  /** Ends the process at once (SIGKILL), as a crash would. */
  async kill(): Promise<void> {
    const child = this.#child
    if (!child || child.exitCode !== null || child.signalCode !== null) return
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve())
      child.kill('SIGKILL')
    })
  }
}

export interface SendTally {
  /** Answers other than 200 (502 from the proxy, 503 while the bus elects a leader), each retried. */
  retried: number
}

/**
 * Posts a webhook the way TradingView retries: until it gets a 200 (with the same body, so the same alert
 * id). Gives up only after `timeoutMs`.
 */
export async function sendUntilAccepted(url: string, body: object, tally: SendTally, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    }).catch(() => undefined)
    const text = await response?.text().catch(() => '')
    if (response?.status === 200) return
    // TradingView gives up on a refusal; a refusal here is a broken test, not something to retry.
    if (response && response.status < 500) throw new Error(`webhook refused: ${response.status} ${text}`)
    tally.retried++
    if (Date.now() > deadline) throw new Error(`webhook never accepted (last status ${response?.status ?? 'none'})`)
    await sleep(250)
  }
}

/** One round (fanout routing: the entry goes to every live user): an MNQ long entry, then (once its trades are open) an exit of MNQ at the same price. */
export function roundAlerts() {
  const entrySent = randomUUID()
  const resultSent = randomUUID()
  return {
    // The ids the records keep: ingest scopes a sender's explicit id to the user_id it names (none for the result).
    entryId: alertIdOf(entrySent, '', 'trader-0'),
    resultId: alertIdOf(resultSent, '', null),
    entry: { id: entrySent, user_id: 'trader-0', action: 'buy', symbol: 'MNQ1!', entryPrice: 21000, sl: 20950, tp: 21100, indicator: 'cluster-test' },
    result: { id: resultSent, action: 'exit', symbol: 'MNQ1!', exitPrice: 21000, indicator: 'cluster-test' },
  }
}
