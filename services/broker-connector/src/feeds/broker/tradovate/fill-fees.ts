import { ENDPOINTS, FILL_FEE_PARTS } from '@signals/tradovate-wire'
import { add, parseDecimal, toPlain } from '@signals/instruments'
import { decimalText } from '../../../shared/decimal-text.ts'
import { isObject } from './wire-values.ts'

type Request = (endpoint: string, body: object | null, query?: string) => Promise<unknown>

/** Fills asked per `fillFee/ldeps` request (the ids ride in the query string). */
const PER_REQUEST = 100

/**
 * What each of these fills cost, all of its FillFee's parts summed (commission, clearing, exchange, NFA,
 * brokerage, IP, order routing; Tradovate charges futures in USD), as exact decimal text. A fill the broker
 * lists no FillFee for is left out: its cost is not known.
 */
export async function fillFeesOf(request: Request, fillIds: readonly number[]): Promise<Map<number, string>> {
  const found = new Map<number, string>()
  for (let start = 0; start < fillIds.length; start += PER_REQUEST) {
    const ids = fillIds.slice(start, start + PER_REQUEST)
    const fees = await request(ENDPOINTS.fillFeeLdeps, null, `masterids=${ids.join(',')}`)
    for (const fee of Array.isArray(fees) ? fees.filter(isObject) : []) {
      if (typeof fee.id !== 'number') continue
      let total = parseDecimal('0')
      for (const part of FILL_FEE_PARTS) {
        const value = fee[part]
        if (typeof value === 'number' && Number.isFinite(value)) total = add(total, parseDecimal(decimalText(value)))
      }
      found.set(fee.id, toPlain(total))
    }
  }
  return found
}
