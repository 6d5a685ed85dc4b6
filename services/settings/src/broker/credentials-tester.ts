import { CREDENTIALS_TEST_SUBJECT, CredentialsTestReplyV1, CredentialsTestRequestV1, contract, type CredentialsTestReply, type CredentialsTestRequest, type SealedLogin } from '@signals/contracts'
import { requestByContract, type Bus, type BusLogger } from '@signals/bus'

const requestContract = contract(CredentialsTestRequestV1)
const replyContract = contract(CredentialsTestReplyV1)

/** What a test says: the broker's answer, or that no connector could ask it. */
export type CredentialsTestResult = Omit<CredentialsTestReply, 'version'> & { testedAt: string }

/**
 * Asks a broker connector (core request `connector.credentials-test`, any instance) to try the user's stored
 * login (or `login`, one sealed for storing and not stored yet) against the broker and answer in the broker's
 * words. The secrets never travel open: the connector opens the stored row, or the sealed login, with its own keys.
 */
export async function testCredentials(bus: Bus, userId: string, options: { timeoutMs: number; logger: BusLogger; login?: SealedLogin }): Promise<CredentialsTestResult> {
  const request: CredentialsTestRequest = options.login ? { version: 1, userId, login: options.login } : { version: 1, userId }
  try {
    const reply = await requestByContract(bus, CREDENTIALS_TEST_SUBJECT, requestContract, request, replyContract, options.timeoutMs)
    if (reply) return { ok: reply.ok, kind: reply.kind, detail: reply.detail, testedAt: new Date().toISOString() }
    options.logger.warn({ userId }, 'credentials test reply is not CredentialsTestReplyV1')
  } catch (error) {
    options.logger.warn({ userId, err: error }, 'credentials test: no broker connector answered')
  }
  return { ok: false, kind: 'no_answer', detail: 'The login could not be tried now: no broker connector answered. Try again in a moment.', testedAt: new Date().toISOString() }
}
