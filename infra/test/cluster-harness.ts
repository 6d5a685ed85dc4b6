import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import { eventually } from '@signals/test-support'
import { alertIdOf } from '../../services/ingest/src/alert-id.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

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
   * Starts the process and waits until its /ready answers 200. A process that exits first fails the wait at
   * once, with what it printed; a wait that runs out says what /ready last answered.
   */
  async start(): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', `services/${this.service}/src/main.ts`], {
      cwd: ROOT,
      env: { ...process.env, ...this.env, [this.service === 'ingest' ? 'INGEST_PORT' : 'BROKER_CONNECTOR_PORT']: String(this.port) },
      // A pipe of this test's, never the runner's own stderr: a process outliving a killed test must not hold
      // the runner's output open.
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    this.#child = child
    let printed = ''
    child.stderr?.on('data', (chunk: Buffer) => {
      printed = (printed + chunk.toString()).slice(-4000)
      process.stderr.write(chunk)
    })
    let lastAnswer = 'none yet'
    // Six processes start on two loaded cores while the suite runs beside them: a start under tsx has taken
    // over 90 s there, so up to 180 s.
    await eventually(
      async () => {
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(`${this.service} on port ${this.port} exited (${child.exitCode ?? child.signalCode}) before it was ready: ${printed}`)
        }
        const response = await fetch(`${this.url}/ready`).catch((error: unknown) => {
          lastAnswer = String(error)
          return undefined
        })
        if (response) lastAnswer = `${response.status} ${await response.text().catch(() => '')}`
        return response?.status === 200
      },
      { timeoutMs: 180_000, intervalMs: 200, what: `${this.service} on port ${this.port} to be ready` },
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}; /ready last answered: ${lastAnswer}`)
    })
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
