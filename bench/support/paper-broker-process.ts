// The paper broker in a process of its own (see paper-broker.child.ts), for the benchmarks that talk to a
// broker: order arrival times, "every position flat?" and "how many live sessions?" over IPC.
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { stopChild } from '@signals/test-support'

export const PAPER_PASSWORD = 'bench-password'

/** Wall clock with sub-millisecond precision, comparable across processes. */
export const wallClock = () => performance.timeOrigin + performance.now()

/** The broker's accounts: login `trader-<i>`, one per benchmark user `<prefix><i>`. */
export const paperAccounts = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ name: `trader-${i}`, password: PAPER_PASSWORD, userId: 100 + i, accountId: 9000 + i, accountName: `DEMO${9000 + i}` }))

/** Which paper broker's wire face the child serves (one engine behind both). */
export type PaperBrokerKind = 'tradovate' | 'projectx'

/** ProjectX accounts of the same logins: `trader-<i>` with the bench password as its API key. */
export const projectXAccounts = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ userName: `trader-${i}`, apiKey: PAPER_PASSWORD, accountId: 7000 + i, accountName: `PAPERX${7000 + i}` }))

export type ToPaperBroker = 'flat?' | 'sessions?' | 'stop'
export type FromPaperBroker =
  | { type: 'ready'; restUrl: string; wsUrl: string; mdUrl: string }
  | { type: 'order'; at: number }
  | { type: 'flat'; flat: boolean }
  | { type: 'sessions'; count: number }

export interface PaperBrokerProcess {
  /** Tradovate: the REST base and the socket; ProjectX: the API base, the user hub and the market hub. */
  restUrl: string
  wsUrl: string
  mdUrl: string
  /** Whether every position at the broker is flat. */
  flat(): Promise<boolean>
  /** Authorized, synchronised real-time sessions the broker holds now. */
  sessions(): Promise<number>
  stop(): Promise<void>
}

/** Forks the paper broker with `accounts` accounts; `onOrder` hears each bracket's arrival (wall clock). */
export async function forkPaperBroker(accounts: number, options: { onOrder?: (at: number) => void; execArgv?: string[]; kind?: PaperBrokerKind } = {}): Promise<PaperBrokerProcess> {
  const child = fork(fileURLToPath(new URL('./paper-broker.child.ts', import.meta.url)), [String(accounts), options.kind ?? 'tradovate'], {
    execArgv: ['--import', 'tsx', ...(options.execArgv ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const answers: { flat?: (flat: boolean) => void; sessions?: (count: number) => void } = {}
  const ready = await new Promise<{ restUrl: string; wsUrl: string; mdUrl: string }>((resolve, reject) => {
    child.on('message', (message: FromPaperBroker) => {
      if (message.type === 'ready') resolve(message)
      else if (message.type === 'order') options.onOrder?.(message.at)
      else if (message.type === 'flat') answers.flat?.(message.flat)
      else answers.sessions?.(message.count)
    })
    child.once('exit', (code) => reject(new Error(`paper broker exited with ${code}`)))
  })
  const ask = <K extends keyof typeof answers>(key: K, question: ToPaperBroker) =>
    new Promise<Parameters<NonNullable<(typeof answers)[K]>>[0]>((resolve) => {
      answers[key] = resolve as (typeof answers)[K]
      child.send(question)
    })
  return {
    ...ready,
    flat: () => ask('flat', 'flat?'),
    sessions: () => ask('sessions', 'sessions?'),
    stop: () => stopChild(child, { ask: () => child.send('stop'), graceMs: 10_000 }),
  }
}
