import Type from 'typebox'

const KillSwitchEvent = Type.Object(
  {
    id: Type.String(),
    requestedAt: Type.String({ format: 'date-time' }),
    outcome: Type.Union([Type.Literal('pending'), Type.Literal('done'), Type.Literal('incomplete'), Type.Literal('no_session')], {
      description:
        'done: every position flattened and every working order cancelled at the broker; incomplete: the broker refused or did not answer part (detail says what); no_session: no broker session was open, nothing could be done at the broker now; pending: still being carried out',
    }),
    detail: Type.Union([Type.String(), Type.Null()], { description: 'what was done at the broker, in words for the trader' }),
    finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { additionalProperties: false },
)

export const KillSwitchResponse = Type.Object(
  {
    success: Type.Literal(true),
    autoPlaceOrders: Type.Literal(false, { description: 'auto-place is off, until the trader switches it on again' }),
    killSwitch: KillSwitchEvent,
  },
  { additionalProperties: false },
)

export const KillSwitchHistory = Type.Object(
  { success: Type.Literal(true), killSwitches: Type.Array(KillSwitchEvent, { description: 'the latest 20, newest first' }) },
  { additionalProperties: false },
)

export const TradeCloseParams = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,17}$', description: 'the trade id' }) }, { additionalProperties: false })

export const TradeCloseResponse = Type.Object(
  {
    success: Type.Literal(true),
    tradeId: Type.String(),
    exit: Type.Union([Type.Literal('sent'), Type.Literal('waiting')], {
      description: 'sent: the flatten went to the broker and the trade closes at its fill; waiting: it waits (detail says why) and is sent when it can',
    }),
    detail: Type.String({ description: 'what was done at the broker, or why the exit waits' }),
  },
  { additionalProperties: false },
)
