import { ENDPOINTS, type OrderVersion } from '@signals/tradovate-wire'
import { decimalText } from '../../../shared/decimal-text.ts'
import type { BrokerOrderVersion } from '../broker-adapter.ts'
import { isObject } from './wire-values.ts'

type Request = (endpoint: string, body: object | null, query?: string) => Promise<unknown>

const priceText = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? decimalText(value) : null)

/** Each order's latest version, one `orderVersion/deps` each (a view reads the few it shows). */
export async function latestVersions(request: Request, orderIds: readonly number[]): Promise<Map<number, BrokerOrderVersion>> {
  const found = new Map<number, BrokerOrderVersion>()
  for (const orderId of orderIds) {
    const versions = await request(ENDPOINTS.orderVersionDeps, null, `masterid=${orderId}`)
    const version = (Array.isArray(versions) ? versions : []).filter(isObject).at(-1) as Partial<OrderVersion> | undefined
    if (!version || typeof version.orderType !== 'string' || typeof version.orderQty !== 'number') continue
    found.set(orderId, { orderType: version.orderType, quantity: version.orderQty, price: priceText(version.price), stopPrice: priceText(version.stopPrice) })
  }
  return found
}

/** `contract/item?id=`: the contract's name, or null when the broker does not know it. */
export async function contractNameOf(request: Request, contractId: number): Promise<string | null> {
  const contract = await request(ENDPOINTS.contractItem, null, `id=${contractId}`).catch(() => null)
  return isObject(contract) && typeof contract.name === 'string' ? contract.name : null
}
