import { sql, type BrokerCredentialsRow, type Database, type Kysely, type Transaction } from '@signals/db'
import type { SealedSecret } from '@signals/secrets'
import type { BrokerCredentialsBody } from '../schemas/broker-credentials.ts'

type Db = Kysely<Database> | Transaction<Database>

export async function findCredentials(db: Db, userId: string): Promise<BrokerCredentialsRow | undefined> {
  return db.selectFrom('broker_credentials').selectAll().where('user_id', '=', userId).executeTakeFirst()
}

/** Inserts or replaces the user's credentials; updated_at always advances. */
export async function upsertCredentials(
  trx: Transaction<Database>,
  userId: string,
  clear: Pick<BrokerCredentialsBody, 'broker' | 'environment' | 'accountId'>,
  sealed: SealedSecret,
): Promise<BrokerCredentialsRow> {
  const row = {
    broker: clear.broker,
    environment: clear.environment,
    account_id: clear.accountId,
    key_id: sealed.keyId,
    secret_iv: sealed.iv,
    secret_tag: sealed.tag,
    secret_ciphertext: sealed.ciphertext,
  }
  return trx
    .insertInto('broker_credentials')
    .values({ user_id: userId, ...row, created_at: sql<Date>`clock_timestamp()`, updated_at: sql<Date>`clock_timestamp()` })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        ...row,
        updated_at: sql<Date>`greatest(clock_timestamp(), broker_credentials.updated_at + interval '1 microsecond')`,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** True when a row was removed. */
export async function deleteCredentials(trx: Transaction<Database>, userId: string): Promise<boolean> {
  const result = await trx.deleteFrom('broker_credentials').where('user_id', '=', userId).executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}
