import { openCredentialsRow, type CredentialsCipher } from '@signals/secrets'
import type { CredentialsSummary } from './schemas/broker-credentials.ts'
import type { PrimaryLoginRow } from '@signals/db'

/** `jdoe@x.com` -> `j********m`: enough to recognise one's own login, too little to use it. */
export function maskUsername(username: string): string {
  const characters = [...username]
  if (characters.length <= 2) return '*'.repeat(characters.length)
  return `${characters[0]}${'*'.repeat(Math.min(8, characters.length - 2))}${characters.at(-1)}`
}

/** The part of stored credentials (the primary's login) a response may show. Opens the login only to mask the user name. */
export function summarizeCredentials(row: PrimaryLoginRow, cipher: CredentialsCipher): CredentialsSummary {
  let usernameMasked: string | null = null
  try {
    const opened = openCredentialsRow(cipher, row)
    if (typeof opened.username === 'string') usernameMasked = maskUsername(opened.username)
  } catch {
    // A key that is no longer configured, or a row edited in the database (its binding no longer holds):
    // the summary still shows everything stored in the clear.
  }
  return {
    broker: row.broker,
    environment: row.environment,
    accountId: row.account_id,
    usernameMasked,
    updatedAt: row.updated_at.toISOString(),
  }
}
