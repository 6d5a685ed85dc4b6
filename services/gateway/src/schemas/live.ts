import { ErrorBody } from '@signals/contracts'

/** Why `GET /api/live` refused the upgrade (a socket that opens has no HTTP answer). */
export const LiveRefusals = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 426: ErrorBody }
