/**
 * The alert fields ingest understands and the names senders use for them (docs/alert-formats.md lists
 * every name and its source). Names are compared after `canonicalName` (lower case, letters and digits
 * only), so `Entry Price`, `entry_price`, `entryPrice` and `ENTRY-PRICE` are one name, in JSON keys, form
 * fields, query parameters and `Label: value` lines alike.
 */
export type FieldName =
  | 'action'
  | 'symbol'
  | 'entryPrice'
  | 'price'
  | 'exitPrice'
  | 'sl'
  | 'stopPrice'
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
  | 'sentiment'
  | 'marketPosition'
  | 'prevMarketPosition'
  | 'positionSize'
  | 'quantity'
  | 'quantityUnit'
  | 'maxLag'
  | 'orderType'
  | 'tpPercent'
  | 'tpDollars'
  | 'slPercent'
  | 'slDollars'
  | 'trail'
  | 'updateTp'
  | 'updateSl'
  | 'reverseOrderClose'
  | 'entryStop'
  | 'timeInForce'
  | 'cancelOrders'
  | 'limitTimeout'
  | 'limitToMarketWait'
  | 'limitTimeoutAction'
  | 'tp1'
  | 'tp2'
  | 'tp3'
  | 'tpBeyond'
  | 'tp1Quantity'
  | 'tp2Quantity'
  | 'tp3Quantity'
  | 'advanceTargets'
  | 'breakevenTrigger'
  | 'breakevenAfterTp1'
  | 'breakevenOffset'
  | 'trailTicks'
  | 'trailDistance'
  | 'trailTriggerPrice'
  | 'trailStepTicks'
  | 'trailPickMyTrade'

/** Each field's accepted names, most specific first: when a payload carries several, the first wins. */
const FIELD_NAMES: Record<FieldName, readonly string[]> = {
  action: ['action', 'side', 'direction', 'orderaction', 'strategyorderaction', 'signal', 'order', 'data'],
  symbol: ['symbol', 'ticker', 'instrument', 'tvinstrument', 'market'],
  entryPrice: ['entryprice', 'entry'],
  price: ['price', 'signalprice', 'limitprice', 'triggerprice', 'orderprice', 'strategyorderprice'],
  exitPrice: ['exitprice', 'closeprice'],
  sl: ['sl', 'stoploss', 'stop'],
  // The stop loss, unless the entry is a stop or stop-limit order: then its trigger (TradersPost; entry-order.ts).
  stopPrice: ['stopprice'],
  tp: ['tp', 'takeprofit', 'target', 'takeprofitprice'],
  indicator: ['indicator', 'indicatorname'],
  userId: ['userid', 'user'],
  leverage: ['leverage'],
  result: ['result'],
  isVendorTest: ['isvendortest', 'vendortest'],
  alertId: ['alertid', 'id'],
  time: ['time', 'timenow', 'timestamp', 'date'],
  secret: ['secret', 'passphrase'],
  message: ['message'],
  sentiment: ['sentiment'],
  marketPosition: ['marketposition', 'strategymarketposition', 'position'],
  prevMarketPosition: ['prevmarketposition', 'strategyprevmarketposition', 'prevposition', 'previousposition'],
  positionSize: ['marketpositionsize', 'strategymarketpositionsize', 'positionsize', 'strategypositionsize'],
  quantity: ['quantity', 'contracts', 'qty', 'size', 'orderqty', 'orderquantity', 'ordercontracts', 'strategyordercontracts'],
  quantityUnit: ['quantitytype', 'currencytype'],
  maxLag: ['maxlag'],
  orderType: ['ordertype'],
  tpPercent: ['percentagetp'],
  tpDollars: ['dollartp'],
  slPercent: ['percentagesl'],
  slDollars: ['dollarsl'],
  trail: ['trail', 'trailstop'],
  // Ours (exit-plan.ts); PickMyTrade's trail_trigger and trail_freq are in its own units: refused (unsupported.ts).
  trailTicks: ['traildistanceticks', 'trailticks', 'trailingstopticks'],
  trailDistance: ['traildistance', 'trailamount', 'trailingstopdistance'],
  trailTriggerPrice: ['trailtriggerprice', 'trailstart', 'trailactivationprice'],
  trailStepTicks: ['trailstepticks', 'trailstep'],
  trailPickMyTrade: ['trailtrigger', 'trailfreq'],
  updateTp: ['updatetp'],
  updateSl: ['updatesl'],
  reverseOrderClose: ['reverseorderclose'],
  // Issue 24, items 5 and 6 (order-instructions.ts, entry-order.ts).
  entryStop: ['entrystopprice', 'stoptrigger', 'triggerstop'],
  timeInForce: ['timeinforce', 'tif'],
  cancelOrders: ['canceltype', 'cancelorders'],
  // Ours: a limit entry not filled in N seconds is cancelled or sent at the market (limit_timeout_action);
  // PickMyTrade's lmt_to_market_wait is N with the market (entry-order.ts).
  limitTimeout: ['limittimeout'],
  limitToMarketWait: ['lmttomarketwait'],
  limitTimeoutAction: ['limittimeoutaction'],
  // Issue 24, item 4: several targets and the move to breakeven after TP1 (exit-plan.ts).
  tp1: ['tp1', 'takeprofit1', 'target1', 'tp1price'],
  tp2: ['tp2', 'takeprofit2', 'target2', 'tp2price'],
  tp3: ['tp3', 'takeprofit3', 'target3', 'tp3price'],
  tpBeyond: ['tp4', 'takeprofit4', 'target4', 'tp5', 'takeprofit5', 'target5'],
  tp1Quantity: ['tp1qty', 'tp1quantity', 'tp1contracts', 'qtytp1', 'quantitytp1'],
  tp2Quantity: ['tp2qty', 'tp2quantity', 'tp2contracts', 'qtytp2', 'quantitytp2'],
  tp3Quantity: ['tp3qty', 'tp3quantity', 'tp3contracts', 'qtytp3', 'quantitytp3'],
  advanceTargets: ['advancetpsl'],
  // PickMyTrade's `breakeven` is a distance in profit that triggers the move, not "after TP1": refused when set.
  breakevenTrigger: ['breakeven'],
  breakevenAfterTp1: ['breakevenaftertp1', 'movetobreakeven', 'movetobe'],
  breakevenOffset: ['breakevenoffsetticks', 'breakevenoffset', 'beoffsetticks'],
}

/**
 * Objects whose fields are read as the alert's own (at lower precedence than top-level ones): 3Commas'
 * `strategy_info` and `order` (where `amount` is the quantity), a TradingView-shaped `strategy`.
 */
const CONTAINERS = new Set(['strategyinfo', 'strategy', 'order'])
const ORDER_CONTAINER_NAMES: ReadonlyMap<string, FieldName> = new Map([['amount', 'quantity']])

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

/** Fields that say where an alert goes: every value sent for them is read, so contradictions are seen. */
export type IntentField = 'action' | 'sentiment' | 'marketPosition' | 'prevMarketPosition' | 'result'
const INTENT_FIELD_LIST: readonly IntentField[] = ['action', 'sentiment', 'marketPosition', 'prevMarketPosition', 'result']
const INTENT_FIELDS: ReadonlySet<FieldName> = new Set(INTENT_FIELD_LIST)

/**
 * Known fields of an alert. `shadowed` keeps the values a lower-ranked name (or an outer record, a
 * container, the query) also sent for an intent field, so contradicting ones (`action: buy` with
 * `side: exit`) are refused instead of ignored.
 */
export type Fields = Partial<Record<FieldName, unknown>> & { shadowed?: Partial<Record<IntentField, unknown[]>> }

/** Picks the known fields out of a record, honouring each field's name ranking. */
export function extractFields(record: Readonly<Record<string, unknown>>): Fields {
  const fields: Fields = {}
  const ranks: Partial<Record<FieldName, number>> = {}
  let nested: Fields | null = null
  for (const [name, value] of Object.entries(record)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && CONTAINERS.has(canonicalName(name))) {
      nested = mergeFields(nested ?? {}, containerFields(name, value as Record<string, unknown>))
      continue
    }
    const entry = nameEntryOf(name)
    if (!entry || value === undefined || value === null || value === '') continue
    const held = ranks[entry.field]
    if (held !== undefined) {
      if (INTENT_FIELDS.has(entry.field)) shadow(fields, entry.field as IntentField, held <= entry.rank ? value : fields[entry.field])
      if (held <= entry.rank) continue
    }
    fields[entry.field] = value
    ranks[entry.field] = entry.rank
  }
  return nested === null ? fields : mergeFields(nested, fields)
}

function shadow(fields: Fields, field: IntentField, value: unknown): void {
  const shadowed = (fields.shadowed ??= {})
  ;(shadowed[field] ??= []).push(value)
}

/** A container's fields (one level deep: a container inside one is read as plain fields). */
function containerFields(name: string, container: Record<string, unknown>): Fields {
  const flat: Record<string, unknown> = {}
  const isOrder = canonicalName(name) === 'order'
  for (const [key, value] of Object.entries(container)) {
    if (value !== null && typeof value === 'object') continue
    const orderField = isOrder ? ORDER_CONTAINER_NAMES.get(canonicalName(key)) : undefined
    flat[orderField ?? key] = value
  }
  return extractFields(flat)
}

/** `higher`'s fields over `lower`'s; an intent field both carry keeps `lower`'s value in `shadowed`. */
export function mergeFields(lower: Fields, higher: Fields): Fields {
  if (isEmpty(lower)) return higher
  const merged: Fields = { ...lower, ...higher }
  if (lower.shadowed === undefined && higher.shadowed === undefined && !INTENT_FIELD_LIST.some((field) => lower[field] !== undefined && higher[field] !== undefined)) {
    return merged
  }
  merged.shadowed = {}
  for (const field of INTENT_FIELD_LIST) {
    const values = [...(higher.shadowed?.[field] ?? []), ...(higher[field] !== undefined && lower[field] !== undefined ? [lower[field]] : []), ...(lower.shadowed?.[field] ?? [])]
    if (values.length > 0) merged.shadowed[field] = values
  }
  return merged
}

const NO_VALUES: readonly unknown[] = []

function isEmpty(fields: Fields): boolean {
  for (const _ in fields) return false
  return true
}

/** Every value sent for an intent field, the one that ranks first leading. */
export function valuesOf(fields: Fields, field: IntentField): readonly unknown[] {
  const first = fields[field]
  const others = fields.shadowed?.[field]
  if (first === undefined) return others ?? NO_VALUES
  return others === undefined ? [first] : [first, ...others]
}

/** True when the fields say anything about an alert (a secret or a bare message wrapper does not). */
export function carriesAlertData(fields: Fields): boolean {
  return Object.keys(fields).some((name) => name !== 'secret' && name !== 'message')
}
