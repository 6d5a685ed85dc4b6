// Forks a service's real main with process-probe.child.ts preloaded, and reads its memory and CPU over IPC.
import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { stopChild } from '@signals/test-support'

export type ToProbe = { type: 'measure'; collect: boolean } | { type: 'snapshot'; file: string }
export interface ProbeReading {
  type: 'reading'
  memory: NodeJS.MemoryUsage
  cpu: NodeJS.CpuUsage
  /** The child's performance.now() at the reading. */
  wallMs: number
  /** Whether a full collection ran first (asked, and the child has --expose-gc). */
  collected: boolean
}
type FromProbe = ProbeReading | { type: 'snapshot'; file: string }

export interface ProbedProcess {
  child: ChildProcess
  /** Memory and CPU now; `collect`: after a full garbage collection (for memory, never for CPU). */
  measure(collect: boolean): Promise<ProbeReading>
  heapSnapshot(file: string): Promise<string>
  stop(): Promise<void>
}

/** Runs `main` (a TypeScript entry point) in a child with `env`, probed. */
export function forkProbed(main: string, env: NodeJS.ProcessEnv): ProbedProcess {
  const child = fork(main, [], {
    execArgv: ['--expose-gc', '--import', 'tsx', '--import', fileURLToPath(new URL('./process-probe.child.ts', import.meta.url))],
    env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const ask = <T extends FromProbe['type']>(question: ToProbe, answer: T) =>
    new Promise<Extract<FromProbe, { type: T }>>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`${main} exited with ${code}`))
      const onMessage = (message: FromProbe) => {
        if (message.type !== answer) return
        child.off('message', onMessage)
        child.off('exit', onExit)
        resolve(message as Extract<FromProbe, { type: T }>)
      }
      child.on('message', onMessage)
      child.once('exit', onExit)
      child.send(question)
    })
  return {
    child,
    measure: (collect) => ask({ type: 'measure', collect }, 'reading'),
    heapSnapshot: async (file) => (await ask({ type: 'snapshot', file }, 'snapshot')).file,
    stop: () => stopChild(child, { graceMs: 10_000 }),
  }
}
