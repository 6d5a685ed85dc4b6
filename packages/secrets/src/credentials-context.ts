/** Who and where a sealed set of broker credentials belongs to. */
export interface CredentialsOwner {
  userId: string
  broker: string
  environment: string
  accountId: string
}

/**
 * The AES-GCM additional data for one credentials row: user, broker, environment and account, so a row
 * edited in the database (say its environment turned from demo to live, or its account changed) no longer
 * opens, and a password never goes to an endpoint its owner did not save it for. `legacyAad` is the binding
 * rows had before (the user id alone): still accepted when opening, until `credentials:reseal` re-seals
 * every row.
 */
export interface CredentialsContext {
  readonly aad: string
  readonly legacyAad: string
}

const VERSION = 'signals-credentials/v2'

export function credentialsContext(owner: CredentialsOwner): CredentialsContext {
  // JSON keeps the fields apart: no value can shift into its neighbour.
  return { aad: `${VERSION}:${JSON.stringify([owner.userId, owner.broker, owner.environment, owner.accountId])}`, legacyAad: owner.userId }
}
