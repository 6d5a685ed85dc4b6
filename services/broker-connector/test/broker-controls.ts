import type { PaperBroker } from '@signals/dev-paper-broker'

/**
 * Sets up the paper broker's misbehaviour through its development HTTP endpoint, as a developer would with
 * curl (`POST /dev/controls`, docs/decisions/paper-broker.md): the connector is tested from outside.
 */
export async function brokerControl(broker: PaperBroker, body: Record<string, unknown>, path = '/dev/controls'): Promise<void> {
  const response = await fetch(`${broker.restUrl.replace(/\/v1$/, '')}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`)
}

/** Requests of an endpoint the broker has seen. */
export const seen = (broker: PaperBroker, endpoint: string) => broker.requests.filter((request) => request.endpoint === endpoint).length

/** Entry orders at the broker under a tag (legs excluded). */
export const entryOrders = (broker: PaperBroker, tag: string) => broker.orders().filter((order) => order.clOrdId === tag)
