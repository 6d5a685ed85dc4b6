import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr'
import { BrokerError } from '../broker-adapter.ts'

export interface HubOptions {
  url: string
  token: () => string
  timeoutMs: number
  /** The connection is lost after this long without a message from the hub (its pings included). */
  silenceMs: number
  /** Called once when the hub connection ends without `stop()`. */
  onLost(reason: string): void
}

/**
 * One SignalR hub connection through the official client, over WebSockets without negotiation as
 * ProjectX's examples connect, the token as `access_token`. No automatic reconnect: events sent while
 * away would be lost, so a lost connection ends the session and the next one starts from a snapshot.
 */
export async function openHub(options: HubOptions): Promise<HubConnection> {
  const connection = new HubConnectionBuilder()
    .withUrl(options.url, { accessTokenFactory: options.token, skipNegotiation: true, transport: HttpTransportType.WebSockets, timeout: options.timeoutMs })
    .configureLogging(LogLevel.None)
    .build()
  connection.serverTimeoutInMilliseconds = options.silenceMs
  let started = false
  connection.onclose((error) => {
    if (started) options.onLost(`the ProjectX hub connection ended${error ? `: ${error.message}` : ''}`.slice(0, 200))
  })
  const timer = setTimeout(() => void connection.stop(), options.timeoutMs)
  try {
    await connection.start()
  } catch (error) {
    throw new BrokerError('unavailable', `ProjectX hub unreachable: ${(error as Error).message}`.slice(0, 200))
  } finally {
    clearTimeout(timer)
  }
  started = true
  return connection
}

/** A hub method call; a failure is the broker refusing it (a subscription to an account not the login's). */
export async function invokeHub(connection: HubConnection, method: string, ...args: unknown[]): Promise<void> {
  try {
    await connection.invoke(method, ...args)
  } catch (error) {
    throw new BrokerError('rejected', `ProjectX hub refused ${method}: ${(error as Error).message}`.slice(0, 200))
  }
}
