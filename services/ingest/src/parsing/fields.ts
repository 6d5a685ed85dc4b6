/**
 * The alert fields ingest understands and the names senders use for them. Names are compared after
 * `canonicalName` (lower case, letters and digits only), so `Entry Price`, `entry_price`, `entryPrice` and
 * `ENTRY-PRICE` are one name, in JSON keys, form fields, query parameters and `Label: value` lines alike.
 */
export type FieldName =
  | 'action'
  | 'symbol'
  | 'entryPrice'
  | 'price'
  | 'exitPrice'
  | 'sl'
  | 'tp'
  | 'indicator'
  | 'userId'
  | 'leverage'
  | 'result'
  | 'isVendorTest'
  | 'alertId'
  | 'time'
  | 'secret'
  | 'message'

/** Each field's accepted names, most specific first: when a payload carries several, the first wins. */
const FIELD_NAMES: Record<FieldName, readonly string[]> = {
  action: ['action', 'side', 'direction'],
  symbol: ['symbol', 'ticker', 'instrument'],
  entryPrice: ['entryprice', 'entry'],
  price: ['price'],
  exitPrice: ['exitprice', 'closeprice'],
  sl: ['sl', 'stoploss', 'stop', 'stopprice'],
  tp: ['tp', 'takeprofit', 'target', 'takeprofitprice'],
  indicator: ['indicator', 'indicatorname'],
  userId: ['userid', 'user'],
  leverage: ['leverage'],
  result: ['result'],
  isVendorTest: ['isvendortest', 'vendortest'],
  alertId: ['alertid', 'id'],
  time: ['time', 'timenow', 'timestamp'],
  secret: ['secret', 'passphrase'],
  message: ['message'],
}

interface NameEntry {
  field: FieldName
  rank: number
}

const BY_CANONICAL_NAME = new Map<string, NameEntry>(
  (Object.entries(FIELD_NAMES) as [FieldName, readonly string[]][]).flatMap(([field, names]) =>
    names.map((name, rank) => [name, { field, rank }] as const),
  ),
)

export function canonicalName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '')
}

/** Senders repeat the same few names; each is resolved once (the table stops growing at this size). */
const MAX_REMEMBERED_NAMES = 4096
const REMEMBERED = new Map<string, NameEntry | null>()

function nameEntryOf(name: string): NameEntry | undefined {
  if (name.length > 64) return undefined
  const remembered = REMEMBERED.get(name)
  if (remembered !== undefined) return remembered ?? undefined
  const entry = BY_CANONICAL_NAME.get(canonicalName(name))
  if (REMEMBERED.size < MAX_REMEMBERED_NAMES) REMEMBERED.set(name, entry ?? null)
  return entry
}

/** The field a sender's name stands for, if any. */
export function fieldOf(name: string): FieldName | undefined {
  return nameEntryOf(name)?.field
}

export type Fields = Partial<Record<FieldName, unknown>>

/** Picks the known fields out of a record, honouring each field's name ranking. */
export function extractFields(record: Readonly<Record<string, unknown>>): Fields {
  const fields: Fields = {}
  const ranks: Partial<Record<FieldName, number>> = {}
  for (const [name, value] of Object.entries(record)) {
    const entry = nameEntryOf(name)
    if (!entry || value === undefined || value === null || value === '') continue
    const held = ranks[entry.field]
    if (held !== undefined && held <= entry.rank) continue
    fields[entry.field] = value
    ranks[entry.field] = entry.rank
  }
  return fields
}

/** True when the fields say anything about an alert (a secret or a bare message wrapper does not). */
export function carriesAlertData(fields: Fields): boolean {
  return Object.keys(fields).some((name) => name !== 'secret' && name !== 'message')
}
