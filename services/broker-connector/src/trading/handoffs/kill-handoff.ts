import { KillSwitchRunReplyV1, KillSwitchRunRequestV1, connectorSubjects, contract, type KillSwitchRunReply } from '@signals/contracts'
import { requestByContract, serveByContract, type Bus } from '@signals/bus'
import type { Logger } from '../../shared/logger.ts'
import type { FeedOwners } from '../../feeds/ownership/owners.ts'

const requestContract = contract(KillSwitchRunRequestV1)
const replyContract = contract(KillSwitchRunReplyV1)

/** The broker's part of a kill switch, as the instance holding the user answers it. */
export type KillRun = Omit<KillSwitchRunReply, 'version'>

const NOBODY: KillRun = {
  outcome: 'no_session',
  detail: 'no broker session is open (live trading off, or the connection down): nothing could be flattened or cancelled at the broker now; the exits of your open trades are sent when the session opens',
}

export interface KillRouterDeps {
  bus: Bus
  owners: FeedOwners
  /** This instance, when it holds feeds; null for an instance without feeds. */
  instanceId: string | null
  timeoutMs: number
  /** Runs the kill switch with the session this instance holds (only called for users it holds). */
  runHere(userId: string): Promise<KillRun>
  logger: Logger
}

/**
 * Hands a kill switch to the instance holding the user's feed, as flattens are (flatten-handoff.ts): run here
 * when this instance holds it, else asked of the holder on `connector.<instanceId>.kills`. Nobody holding
 * the user, or a holder that does not answer, is said so: the durable flattens written with the kill
 * switch are carried out at the next session open or sweep.
 */
export async function routeKill(deps: KillRouterDeps, userId: string): Promise<KillRun> {
  const owner = await deps.owners.ownerOf(userId)
  if (owner === null) return NOBODY
  if (owner === deps.instanceId) return deps.runHere(userId)
  try {
    const reply = await requestByContract(deps.bus, connectorSubjects(owner).kills, requestContract, { version: 1, userId }, replyContract, deps.timeoutMs)
    if (!reply) throw new Error(`kill switch reply from ${owner} is not KillSwitchRunReplyV1`)
    return reply.outcome === 'not_held' ? NOBODY : { outcome: reply.outcome, detail: reply.detail }
  } catch (error) {
    deps.logger.warn({ owner, userId, err: error }, 'kill switch not handed to the holder of the feed')
    return {
      outcome: 'incomplete',
      detail: 'the connector holding your broker session did not answer: the exits of your open trades are sent at its next sweep; check your positions at the broker',
    }
  }
}

/** Answers `connector.<instanceId>.kills` for users this instance holds; others are `not_held`. */
export function serveKills(bus: Bus, instanceId: string, holds: (userId: string) => boolean, run: (userId: string) => Promise<KillRun>, logger: Logger): { unsubscribe(): void } {
  const answer = async ({ userId }: { userId: string }): Promise<KillSwitchRunReply> =>
    holds(userId) ? { version: 1, ...(await run(userId)) } : { version: 1, outcome: 'not_held', detail: 'not held here' }
  return serveByContract(bus, connectorSubjects(instanceId).kills, { request: requestContract, reply: replyContract }, answer, logger, {
    answerer: 'kill switch handoff',
    invalidRequest: 'kill switch request is not KillSwitchRunRequestV1',
    failed: 'forwarded kill switch not carried out',
  })
}
