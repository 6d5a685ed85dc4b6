import { EntrySettleReplyV1, EntrySettleRequestV1, connectorSubjects, contract, type EntrySettleReply, type EntrySettleRequest } from '@signals/contracts'
import { requestByContract, serveByContract, type Bus } from '@signals/bus'
import type { Logger } from '../../shared/logger.ts'
import type { RecordOutcome } from '../entry/settle-records.ts'
import type { EntryRouter, RecordRef } from '../entry/entry-flow.ts'
import type { FeedOwners } from '../../feeds/ownership/owners.ts'

const requestContract = contract(EntrySettleRequestV1)
const replyContract = contract(EntrySettleReplyV1)

/**
 * Sends records to the instance holding their users' feeds. Records whose shard nobody holds, or this
 * instance holds, stay here: settled locally, they wait for a session (retry) and fail only after the
 * entry flow's session wait, as with a single instance.
 */
export function entryRouter(bus: Bus, owners: FeedOwners, instanceId: string | null, timeoutMs: number): EntryRouter {
  return {
    async route(records) {
      const ownerOf = await owners.ownersOf(records.map((record) => record.userId))
      const local: RecordRef[] = []
      const remote = new Map<string, RecordRef[]>()
      for (const record of records) {
        const owner = ownerOf.get(record.userId) ?? null
        if (owner === null || owner === instanceId) local.push(record)
        else remote.set(owner, [...(remote.get(owner) ?? []), record])
      }
      return { local, remote: [...remote].map(([owner, refs]) => ({ owner, records: refs })) }
    },
    async forward(owner, records) {
      const request: EntrySettleRequest = { version: 1, records: [...records] }
      const reply = await requestByContract(bus, connectorSubjects(owner).entries, requestContract, request, replyContract, timeoutMs)
      if (!reply) throw new Error(`entry settle reply from ${owner} is not EntrySettleReplyV1`)
      return reply.outcomes
    },
  }
}

/**
 * Answers `connector.<instanceId>.entries`: records of users whose shard this instance holds are settled
 * with its sessions; others (the shard moved on meanwhile) are answered `retry`.
 */
export function serveEntries(
  bus: Bus,
  instanceId: string,
  holds: (userId: string) => boolean,
  settle: (records: readonly RecordRef[]) => Promise<RecordOutcome[]>,
  logger: Logger,
): { unsubscribe(): void } {
  const answer = async ({ records }: EntrySettleRequest): Promise<EntrySettleReply> => {
    const mine = records.filter((record) => holds(record.userId))
    const outcomes: RecordOutcome[] = [...(await settle(mine)), ...records.filter((record) => !holds(record.userId)).map(() => 'retry' as const)]
    return { version: 1, outcomes }
  }
  return serveByContract(bus, connectorSubjects(instanceId).entries, { request: requestContract, reply: replyContract }, answer, logger, {
    answerer: 'entry handoff',
    invalidRequest: 'entry settle request is not EntrySettleRequestV1',
    failed: 'forwarded entry records not settled; the sender retries',
  })
}
