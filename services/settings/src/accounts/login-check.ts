import { HttpError } from '@signals/http-kit'
import type { Bus, BusLogger } from '@signals/bus'
import { testCredentials } from '../broker/credentials-tester.ts'
import type { SealedLogin } from './add-account.ts'

/** What the broker said that only the trader can put right (the login or the account named). */
const REFUSED = new Set(['credentials_refused', 'account_not_found', 'rejected'])

/**
 * A new login is tried at the broker before anything is stored (issue 22; docs/decisions/accounts.md), as
 * `PUT /api/broker-credentials` tries it: the connector opens the sealed login and answers in the broker's
 * words. A refusal is the trader's to fix: 400, worded as the account's other refusals (`Invalid account:
 * ...`), with the broker's kind as `code` and the test. A broker (or connector) that cannot be asked now is
 * 503: nothing is added, try again.
 */
export async function checkNewLogin(bus: Bus, userId: string, brokerAccountId: string, login: SealedLogin, options: { timeoutMs: number; logger: BusLogger }): Promise<void> {
  const { sealed } = login
  const test = await testCredentials(bus, userId, {
    ...options,
    login: {
      broker: login.broker, environment: login.environment, accountId: brokerAccountId, keyId: sealed.keyId,
      iv: sealed.iv.toString('base64'), tag: sealed.tag.toString('base64'), ciphertext: sealed.ciphertext.toString('base64'),
    },
  })
  if (test.ok) return
  if (test.kind !== null && REFUSED.has(test.kind)) throw new HttpError(400, `Invalid account: ${test.detail}`, { code: test.kind, test })
  throw new HttpError(503, `The login could not be tried at the broker now, so the account was not added: ${test.detail}`, { code: 'login_not_tried', test })
}
