// A time as the trader reads it: in their own zone, with the exchange's clock beside it (CME contracts trade
// on Chicago time, where the trading day rolls at 17:00): `Nov 26, 14:03:22 GMT+1 · 07:03 CT`.
import { EXCHANGE_TIME_ZONE } from '@signals/instruments'

const formats = new Map<string, Intl.DateTimeFormat>()
function format(zone: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${zone ?? ''}|${JSON.stringify(options)}`
  let found = formats.get(key)
  if (found === undefined) {
    found = new Intl.DateTimeFormat('en-US', { ...options, timeZone: zone, hourCycle: 'h23' })
    formats.set(key, found)
  }
  return found
}

export interface BothZones {
  /** The trader's zone: date, time to the second and the zone's short name. */
  local: string
  /** The exchange's wall clock (`07:03 CT`); the date too when it differs from the trader's. */
  exchange: string
}

/** `at` in `zone` (the browser's own when not given) and on the exchange's clock. */
export function bothZones(at: string | Date, zone?: string): BothZones {
  const instant = new Date(at)
  const local = format(zone, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'short' }).format(instant)
  const dayIn = (tz: string | undefined) => format(tz, { month: 'short', day: 'numeric' }).format(instant)
  const clock = format(EXCHANGE_TIME_ZONE, { hour: '2-digit', minute: '2-digit' }).format(instant)
  const sameDay = dayIn(zone) === dayIn(EXCHANGE_TIME_ZONE)
  return { local, exchange: `${sameDay ? '' : `${dayIn(EXCHANGE_TIME_ZONE)}, `}${clock} CT` }
}

/** One element showing both (the exchange's time muted beside the trader's); '–' for none. */
export function timeElement(at: string | null | undefined): HTMLElement {
  const element = document.createElement('span')
  if (!at) {
    element.textContent = '–'
    return element
  }
  const { local, exchange } = bothZones(at)
  const time = document.createElement('time')
  time.dateTime = new Date(at).toISOString()
  time.textContent = local
  const beside = document.createElement('span')
  beside.className = 'zone muted'
  beside.textContent = ` · ${exchange}`
  beside.title = 'Exchange time (Chicago)'
  element.append(time, beside)
  return element
}
