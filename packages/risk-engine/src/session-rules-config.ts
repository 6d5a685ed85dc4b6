import Type, { type Static } from 'typebox'

/**
 * The session rules area of the risk-engine configuration (issue 24 item 8): its own object and file so
 * other areas' changes merge without touching it. Optional on POST (older clients send the nine spec
 * areas only); its defaults change nothing: no window, no daily flatten, no entry cap, no news blackout.
 */
const ClockTime = (description: string) => Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description })

export const TradingWindow = Type.Object(
  {
    start: ClockTime('HH:MM on the exchange clock (America/Chicago) when entries start being allowed'),
    end: ClockTime('HH:MM on the exchange clock when entries stop being allowed; earlier than start = the window crosses midnight'),
  },
  { additionalProperties: false },
)

const CountOrNone = (maximum: number, description: string) =>
  Type.Union([Type.Integer({ minimum: 1, maximum }), Type.Null()], { default: null, description })

export const SessionRulesArea = Type.Object(
  {
    tradingWindows: Type.Array(TradingWindow, {
      maxItems: 10,
      default: [],
      description: 'entries are allowed only inside one of these windows on the exchange clock (exits always are); empty = at any time',
    }),
    dailyFlattenAt: Type.Union([ClockTime('HH:MM'), Type.Null()], {
      default: null,
      description: 'HH:MM on the exchange clock at which every position is flattened and working entries cancelled, once per trading day; null = never',
    }),
    maxEntriesPerDay: CountOrNone(1_000, 'entry orders sent in one trading day, at most; null = no limit'),
    maxExecutionsPerDay: CountOrNone(10_000, 'executions (entry and exit fills of trades) in one trading day, at most, before a further entry; null = no limit'),
    newsBlackout: Type.Boolean({ default: false, description: "whether entries are refused around the administrator's news events" }),
    flattenBeforeNews: Type.Boolean({ default: false, description: 'with newsBlackout: every position is flattened when a blackout begins (and by an entry refused inside one)' }),
  },
  { additionalProperties: false, description: 'session rules: trading windows, daily flatten, entry caps, news blackouts' },
)
export type SessionRules = Static<typeof SessionRulesArea>
