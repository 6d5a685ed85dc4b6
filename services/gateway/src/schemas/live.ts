import Type from 'typebox'

/** Why `GET /api/live` refused the upgrade. */
export const LiveErrorBody = Type.Object({ success: Type.Literal(false), error: Type.String() })
