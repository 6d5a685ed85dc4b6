// ProjectX Gateway's enums and record shapes, as its API reference and real-time pages give them
// (gateway.docs.projectx.com; docs/decisions/projectx-paper-broker.md).

export const OrderType = { Limit: 1, Market: 2, StopLimit: 3, Stop: 4, TrailingStop: 5, JoinBid: 6, JoinAsk: 7 } as const
export const OrderSide = { Bid: 0, Ask: 1 } as const
export const OrderStatus = { None: 0, Open: 1, Filled: 2, Cancelled: 3, Expired: 4, Rejected: 5, Pending: 6 } as const
export const PositionType = { Undefined: 0, Long: 1, Short: 2 } as const

/** Each endpoint has its own error-code enum; these are the codes the paper broker answers with. */
export const PlaceOrderError = { AccountNotFound: 1, OrderRejected: 2, InsufficientFunds: 3, ContractNotFound: 8 } as const
export const OrderCommandError = { AccountNotFound: 1, OrderNotFound: 2, Rejected: 3 } as const
export const ClosePositionError = { AccountNotFound: 1, PositionNotFound: 2, ContractNotFound: 3, OrderRejected: 5 } as const
export const PartialCloseError = { AccountNotFound: 1, PositionNotFound: 2, ContractNotFound: 3, InvalidCloseSize: 5, OrderRejected: 6 } as const
export const LoginError = { InvalidCredentials: 3 } as const

/** Every answer is HTTP 200 with these fields; a refusal has `success: false` and says why. */
export interface Outcome {
  success: boolean
  errorCode: number
  errorMessage: string | null
}

export const ok = <T extends object>(fields: T): T & Outcome => ({ ...fields, success: true, errorCode: 0, errorMessage: null })
export const refused = (errorCode: number, errorMessage: string, fields: object = {}): Outcome => ({ ...fields, success: false, errorCode, errorMessage })

export interface ProjectXAccount {
  id: number
  name: string
  balance: number
  canTrade: boolean
  isVisible: boolean
  simulated: boolean
}

export interface ProjectXOrder {
  id: number
  accountId: number
  contractId: string
  symbolId: string
  creationTimestamp: string
  updateTimestamp: string
  status: number
  type: number
  side: number
  size: number
  limitPrice: number | null
  stopPrice: number | null
  fillVolume: number
  filledPrice: number | null
  customTag: string | null
  /** A bracket leg's entry (the newer order schema's field); null otherwise. */
  parentOrderId: number | null
}

export interface ProjectXPosition {
  id: number
  accountId: number
  contractId: string
  creationTimestamp: string
  type: number
  size: number
  averagePrice: number
}

export interface ProjectXTrade {
  id: number
  accountId: number
  contractId: string
  creationTimestamp: string
  price: number
  /** Null on a half-turn (a fill that opens or adds). */
  profitAndLoss: number | null
  fees: number
  side: number
  size: number
  voided: boolean
  orderId: number
}

export type UserEventTarget = 'GatewayUserAccount' | 'GatewayUserOrder' | 'GatewayUserPosition' | 'GatewayUserTrade'

/** One user-hub event for an account's subscribers. */
export interface UserEvent {
  accountId: number
  target: UserEventTarget
  data: ProjectXAccount | ProjectXOrder | ProjectXPosition | ProjectXTrade
}
