import { HttpError, notFound } from '@signals/http-kit'

/** Someone else's account answers as a missing one: its existence is not the caller's to know. */
export const accountNotFound = () => notFound('Account not found')

/** 409 with a reason code the page can act on. */
const refusal = (code: string, message: string) => new HttpError(409, message, { code })

export const tradingNotAvailable = () =>
  refusal(
    'account_trading_not_available',
    'Trading on additional accounts is not available yet: only your primary account can go live until the broker connection trades by account',
  )

export const primaryNotDeletable = () =>
  refusal('primary_account', 'Your primary account cannot be deleted: the single-account settings address it. Remove its broker credentials instead (DELETE /api/broker-credentials)')

export const accountAlreadyLinked = () => refusal('account_exists', 'That broker account is already linked under this login')
