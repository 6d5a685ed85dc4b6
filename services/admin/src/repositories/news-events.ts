import type { Database, Kysely, NewsEventRow as NewsEvent } from '@signals/db'

export async function insertNewsEvent(db: Kysely<Database>, event: { name: string; at: string; minutesBefore: number; minutesAfter: number; createdBy: string }): Promise<NewsEvent> {
  return db
    .insertInto('news_events')
    .values({ name: event.name, at: event.at, minutes_before: event.minutesBefore, minutes_after: event.minutesAfter, created_by: event.createdBy })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** Events at or after `from`, soonest first. */
export async function listNewsEvents(db: Kysely<Database>, query: { from: Date; limit: number }): Promise<NewsEvent[]> {
  return db.selectFrom('news_events').selectAll().where('at', '>=', query.from).orderBy('at').orderBy('id').limit(query.limit).execute()
}

export async function deleteNewsEvent(db: Kysely<Database>, id: number): Promise<NewsEvent | undefined> {
  return db.deleteFrom('news_events').where('id', '=', id).returningAll().executeTakeFirst()
}
