import { FlattenRunReplyV1, FlattenRunRequestV1, connectorSubjects, contract, type FlattenRunReply, type FlattenRunRequest } from '@signals/contracts'
import { requestByContract, serveByContract, type Bus } from '@signals/bus'
import type { Logger } from '../../shared/logger.ts'
import type { FlattenDispatch } from '../positions/flatten-dispatch.ts'
import type { FlattenRun } from '../positions/flatten-runner.ts'
import type { FeedOwners } from '../../feeds/ownership/owners.ts'

const requestContract = contract(FlattenRunRequestV1)
const replyContract = contract(FlattenRunReplyV1)

export interface FlattenRouterDeps {
  bus: Bus
  owners: FeedOwners
  /** This instance, when it holds feeds (its users' flattens run here); null for an instance without feeds. */
  instanceId: string | null
  timeoutMs: number
  /** Runs the pending flattens of users whose shard this instance holds. */
  runHere(userId: string): Promise<FlattenRun>
  /** Users nobody holds now: their flattens wait for a session, and say so. */
  waitForSession(userIds: readonly string[]): Promise<void>
  logger: Logger
}

/**
 * Hands flattens to the instance holding each user's feed, as entry records are (entry-handoff.ts): users of
 * shards this instance holds run here; others go to their holder as `FlattenRunRequestV1` on the core
 * subject `connector.<instanceId>.flattens`; users of shards nobody holds wait for the next holder, whose
 * session open runs them. A holder that does not answer is logged: the requests stay and its sweep (or the
 * next holder's session open) carries them out.
 */
export function flattenRouter(deps: FlattenRouterDeps): FlattenDispatch {
  return {
    async dispatch(userIds) {
      if (userIds.length === 0) return
      const ownerOf = await deps.owners.ownersOf(userIds)
      const here: string[] = []
      const nobody: string[] = []
      const remote = new Map<string, string[]>()
      for (const userId of new Set(userIds)) {
        const owner = ownerOf.get(userId) ?? null
        if (owner === null) nobody.push(userId)
        else if (owner === deps.instanceId) here.push(userId)
        else remote.set(owner, [...(remote.get(owner) ?? []), userId])
      }
      await Promise.all([
        deps.waitForSession(nobody),
        ...here.map((userId) => deps.runHere(userId)),
        ...[...remote].map(([owner, users]) => forward(deps, owner, users)),
      ])
    },
  }
}

async function forward(deps: FlattenRouterDeps, owner: string, userIds: string[]): Promise<void> {
  const request: FlattenRunRequest = { version: 1, userIds }
  try {
    const reply = await requestByContract(deps.bus, connectorSubjects(owner).flattens, requestContract, request, replyContract, deps.timeoutMs)
    if (!reply) throw new Error(`flatten reply from ${owner} is not FlattenRunReplyV1`)
    deps.logger.info({ owner, users: userIds.length, outcomes: reply.outcomes }, 'flattens handed to the holder of the users\' feeds')
  } catch (error) {
    deps.logger.warn({ owner, users: userIds.length, err: error }, 'flattens not handed over; the holder carries them out at its next sweep or session open')
  }
}

/**
 * Answers `connector.<instanceId>.flattens`: the pending flattens of users whose shard this instance
 * holds are run with their sessions; others (the shard moved on) are answered `not_held`.
 */
export function serveFlattens(
  bus: Bus,
  instanceId: string,
  holds: (userId: string) => boolean,
  run: (userId: string) => Promise<FlattenRun>,
  logger: Logger,
): { unsubscribe(): void } {
  const answer = async ({ userIds }: FlattenRunRequest): Promise<FlattenRunReply> => ({
    version: 1,
    outcomes: await Promise.all(userIds.map((userId) => (holds(userId) ? run(userId) : Promise.resolve('not_held' as const)))),
  })
  return serveByContract(bus, connectorSubjects(instanceId).flattens, { request: requestContract, reply: replyContract }, answer, logger, {
    answerer: 'flatten handoff',
    invalidRequest: 'flatten run request is not FlattenRunRequestV1',
    failed: 'forwarded flattens not carried out; they stay pending',
  })
}
