import t from 'tap'
import fc from 'fast-check'
import { build } from '../helper.ts'

const RUNS = Number(process.env.INGEST_PROPERTY_RUNS ?? 300)

/** Exit words as platforms and traders write them (TradersPost, 3Commas, PickMyTrade, TradingView, ours). */
const EXIT_WORDS = [
  'exit', 'close', 'flat', 'flatten', 'closed', 'exit_long', 'Exit Long', 'exit_short', 'EXIT-SHORT', 'close_long', 'close short',
  'closeall', 'exit all', 'sell_to_close', 'buy to cover', 'long exit', 'TP', 'take_profit', 'Take Profit', 'SL', 'stop_loss', 'Stop Loss', 'session end',
]
/** Every name under which a side, an action, a position or a result is read. */
const INTENT_NAMES = [
  'action', 'Action', 'side', 'SIDE', 'direction', 'signal', 'order', 'data', 'Order Action', 'strategy.order.action',
  'sentiment', 'market_position', 'strategy.market_position', 'position', 'Market Position', 'result', 'Result',
]
const BACKGROUND_NAMES = [...INTENT_NAMES, 'prev_market_position', 'symbol', 'ticker', 'price', 'quantity', 'contracts', 'indicator', 'isVendorTest', 'sl', 'tp']
const BACKGROUND_VALUES = ['buy', 'sell', 'long', 'short', 'Buy', 'SELL', 'LONG', 'enter_long', 'enter_short', 'bullish', 'NQ1!', 'MNQZ6', '21000.25', '1', '2', 'false', 'x']

const casing = (word: string, pattern: boolean[]) =>
  [...word].map((char, index) => (pattern[index % Math.max(pattern.length, 1)] ? char.toUpperCase() : char.toLowerCase())).join('')
const exitWord = fc.tuple(fc.constantFrom(...EXIT_WORDS), fc.array(fc.boolean(), { maxLength: 6 }), fc.constantFrom('', ' ', '  ')).map(([word, pattern, pad]) => `${pad}${casing(word, pattern)}${pad}`)
const background = fc.dictionary(fc.constantFrom(...BACKGROUND_NAMES), fc.constantFrom(...BACKGROUND_VALUES), { maxKeys: 8 })
const placement = fc.constantFrom('top', 'message', 'outside the message', 'strategy_info', 'label lines', 'form', 'query')

type Placement = 'top' | 'message' | 'outside the message' | 'strategy_info' | 'label lines' | 'form' | 'query'

/** The request that carries `others` and, at `where`, the exit word under `name`. */
function requestOf(others: Record<string, string>, name: string, word: string, where: Placement) {
  const json = (payload: unknown) => ({ contentType: 'application/json', payload: JSON.stringify(payload), query: '' })
  switch (where) {
    case 'top': return json({ ...others, [name]: word })
    case 'message': return json({ ...others, message: JSON.stringify({ [name]: word }) })
    case 'outside the message': return json({ [name]: word, message: JSON.stringify(others) })
    case 'strategy_info': return json({ ...others, strategy_info: { [name]: word } })
    case 'label lines': {
      const lines = [...Object.entries(others), [name, word]].map(([label, value]) => `${label}: ${value}`)
      return { contentType: 'text/plain', payload: lines.join('\n'), query: '' }
    }
    case 'form': return { contentType: 'application/x-www-form-urlencoded', payload: new URLSearchParams([...Object.entries(others), [name, word]]).toString(), query: '' }
    case 'query': return { ...json(others), query: `&${encodeURIComponent(name)}=${encodeURIComponent(word)}` }
  }
}

t.test('no alert in which an exit word appears (under any side, action, position or result name, anywhere) is published as an entry', async (t) => {
  const { app, watcher } = await build(t, { INGEST_RATE_LIMIT_PER_MINUTE: '0' })
  const seen = { accepted: 0, refused: 0 }
  await fc.assert(
    fc.asyncProperty(background, fc.constantFrom(...INTENT_NAMES), exitWord, placement, async (others, name, word, where) => {
      const request = requestOf(others, name, word, where)
      const response = await app.inject({
        method: 'POST',
        url: `/webhook/alert?user_id=prop-user&symbol=NQ1!${request.query}`,
        headers: { 'content-type': request.contentType },
        payload: request.payload,
      })
      if (response.statusCode === 200) {
        seen.accepted++
        const kind = response.json<{ kind: string }>().kind
        if (kind === 'entry') throw new Error(`published as an entry: ${where} ${request.payload} ${request.query}`)
      } else if (response.statusCode === 400) seen.refused++
      else throw new Error(`unexpected ${response.statusCode}: ${response.body}`)
    }),
    { numRuns: RUNS },
  )
  t.ok(seen.accepted > 0 && seen.refused > 0, `exits published and contradictions refused were both exercised: ${JSON.stringify(seen)}`)
  await watcher.intakeEntries(RUNS)
  t.same(watcher.alerts.filter((alert) => alert.subject === 'alerts.entry'), [], 'nothing reached alerts.entry')
  t.ok(watcher.alerts.some((alert) => alert.subject === 'alerts.result'), 'exits reached alerts.result')
})

t.test('the same alerts without the exit word do reach alerts.entry (the property is not vacuous)', async (t) => {
  const { app, watcher } = await build(t)
  const response = await app.inject({ method: 'POST', url: '/webhook/alert?user_id=prop-user&symbol=NQ1!', payload: { side: 'buy', sentiment: 'long' } })
  t.equal(response.statusCode, 200)
  const [message] = await watcher.alertMessages(1)
  t.equal(message?.subject, 'alerts.entry')
})
