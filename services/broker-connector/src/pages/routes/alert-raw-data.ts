import { redactSecretFields } from '@signals/contracts'

/** The columns a record's rawData is made from. */
interface RawDataRow {
  owner_user_id: string | null
  raw_data: unknown
  action: string | null
  symbol: string | null
  entry_price: string | null
  sl: string | null
  tp: string | null
  indicator: string | null
  leverage: string | null
  alert_quantity: string | null
}

export interface Viewer {
  userId: string
  role: string
}

/**
 * What a record's `rawData` shows its viewer (issue 22). The payload as sent belongs to its sender (the
 * user_id it carried) and administrators; anything named like a secret is redacted for them too, whatever
 * was stored. A fan-out recipient gets the normalized alert in the same field (the spec keeps raw_data on
 * every record): `_normalized: true`, the record's own values, `_raw: true` when parsing failed, and never
 * the sender's user_id.
 */
export function rawDataFor(row: RawDataRow, viewer: Viewer): unknown {
  if (viewer.role === 'admin' || (row.owner_user_id !== null && row.owner_user_id === viewer.userId)) return redactSecretFields(row.raw_data)
  const parseFailed = row.raw_data !== null && typeof row.raw_data === 'object' && (row.raw_data as Record<string, unknown>)._raw === true
  return {
    _normalized: true,
    ...(parseFailed ? { _raw: true } : {}),
    action: row.action,
    symbol: row.symbol,
    entryPrice: row.entry_price,
    sl: row.sl,
    tp: row.tp,
    indicator: row.indicator,
    leverage: row.leverage,
    quantity: row.alert_quantity,
  }
}
