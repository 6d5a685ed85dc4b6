import Type from 'typebox'

const FieldValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null(), Type.Array(Type.Object({ start: Type.String(), end: Type.String() }))])

const PresetSource = Type.Object({
  url: Type.String({ description: 'the page the figures come from' }),
  states: Type.String({ description: 'what the page says, in a few words' }),
  thirdParty: Type.Boolean({ description: "true when the page is not the firm's own" }),
  readOn: Type.String({ description: 'when our reference read it (YYYY-MM or YYYY-MM-DD)' }),
})

const PropFirmPresetView = Type.Object({
  id: Type.String(),
  firm: Type.String(),
  plan: Type.String(),
  accountSize: Type.Union([Type.Number(), Type.Null()], { description: 'USD; null when the sources give no account size (the trader keeps theirs)' }),
  fields: Type.Record(Type.String(), FieldValue, { description: 'the configuration fields the preset sets, by dotted name; every other field keeps its value' }),
  lockAboveStartingBalance: Type.Union([Type.Number(), Type.Null()], {
    description: 'when set, trailingDrawdown.stopTrailingAtBalance becomes the resulting starting balance plus this',
  }),
  notCovered: Type.Array(Type.String(), { description: "the firm's rules the risk engine has no field (or our sources no figure) for" }),
  automation: Type.String({ description: 'what the firm says about automated trading, as the sources state it' }),
  sources: Type.Array(PresetSource),
})

export const PropFirmPresetsResponse = Type.Object({ success: Type.Literal(true), presets: Type.Array(PropFirmPresetView) })

export const PresetIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: 'a preset id from GET /api/risk-engine/presets' }) })
