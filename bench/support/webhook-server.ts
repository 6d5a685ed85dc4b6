// Starts and stops the ingest benchmarks' webhook servers, each in a child process of its own
// (webhook-server.child.ts).
import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { stopChild } from '@signals/test-support'

export type WebhookServerKind = { kind: 'bare' } | { kind: 'ingest'; natsUrl: string; namespace: string; replicas: number }

export interface WebhookServer {
  child: ChildProcess
  port: number
}

/** Forks the server and resolves with its port once it listens; `execArgv` adds Node options (e.g. a CPU profile). */
export function startWebhookServer(server: WebhookServerKind, execArgv: string[] = []): Promise<WebhookServer> {
  const args = server.kind === 'bare' ? ['bare'] : ['ingest', server.natsUrl, server.namespace, String(server.replicas)]
  const child = fork(fileURLToPath(new URL('./webhook-server.child.ts', import.meta.url)), args, {
    execArgv: ['--import', 'tsx', ...execArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ child, port: (message as { port: number }).port }))
    child.once('exit', (code) => reject(new Error(`${server.kind} server exited with ${code}`)))
  })
}

/** Asks the server to close (SIGKILL after 10 s). */
export const stopWebhookServer = (server: WebhookServer): Promise<void> => stopChild(server.child, { ask: (child) => child.send('stop'), graceMs: 10_000 })
