import type { Database, Kysely } from '@signals/db'
import { notFound } from '@signals/http-kit'
import { isOwnAccount } from '../../repositories/own-accounts.ts'

/**
 * The `?accountId=` of a listing: one of the caller's accounts, else 404 as `/api/accounts/:id` answers
 * (another trader's account is not the caller's to know of; docs/decisions/accounts.md).
 */
export async function ownAccountFilter(db: Kysely<Database>, userId: string, accountId: string | undefined): Promise<string | undefined> {
  if (accountId === undefined) return undefined
  if (!(await isOwnAccount(db, userId, accountId))) throw notFound('Account not found')
  return accountId
}
