import { BrokerViewReplyV1, BrokerViewRequestV1, connectorSubjects, contract, type BrokerViewReply, type BrokerViewRequest } from '@signals/contracts'
import { requestByContract, serveByContract, type Bus } from '@signals/bus'
import type { Logger } from '../../shared/logger.ts'
import type { FeedOwners } from '../../feeds/ownership/owners.ts'

const requestContract = contract(BrokerViewRequestV1)
const replyContract = contract(BrokerViewReplyV1)

/** A read of the session, or why there is none. */
export type ViewRead = Omit<BrokerViewReply, 'version' | 'outcome'> & { outcome: Exclude<BrokerViewReply['outcome'], 'not_held'> }

const empty = { stale: false, positions: null, orders: null }

const NOBODY: ViewRead = {
  outcome: 'no_session',
  detail: 'no broker session is open (live trading off, or the connection down): the broker cannot be asked now',
  ...empty,
}

export interface ViewRouterDeps {
  bus: Bus
  owners: FeedOwners
  /** This instance, when it holds feeds; null for an instance without feeds. */
  instanceId: string | null
  timeoutMs: number
  /** Reads the session this instance holds (only called for users it holds). */
  readHere(request: BrokerViewRequest): Promise<ViewRead>
  logger: Logger
}

/**
 * Asks the instance holding the user's session what the broker says, as the kill switch is handed on
 * (trading/handoffs/kill-handoff.ts): read here when this instance holds the user, else asked of the holder on
 * `connector.<instanceId>.broker-view`. Nobody holding the user is `no_session`; a holder that does not
 * answer is `unavailable`.
 */
export async function routeView(deps: ViewRouterDeps, request: BrokerViewRequest): Promise<ViewRead> {
  const owner = await deps.owners.ownerOf(request.userId)
  if (owner === null) return NOBODY
  if (owner === deps.instanceId) return deps.readHere(request)
  try {
    const reply = await requestByContract(deps.bus, connectorSubjects(owner).brokerView, requestContract, request, replyContract, deps.timeoutMs)
    if (!reply) throw new Error(`broker view reply from ${owner} is not BrokerViewReplyV1`)
    if (reply.outcome === 'not_held') return NOBODY
    return { outcome: reply.outcome, stale: reply.stale, detail: reply.detail, positions: reply.positions, orders: reply.orders }
  } catch (error) {
    deps.logger.warn({ owner, userId: request.userId, err: error }, 'broker view not read by the holder of the feed')
    return { outcome: 'unavailable', detail: 'the connector holding your broker session did not answer: try again in a moment', ...empty }
  }
}

/** Answers `connector.<instanceId>.broker-view` for users this instance holds; others are `not_held`. */
export function serveViews(bus: Bus, instanceId: string, holds: (userId: string) => boolean, read: (request: BrokerViewRequest) => Promise<ViewRead>, logger: Logger): { unsubscribe(): void } {
  const answer = async (request: BrokerViewRequest): Promise<BrokerViewReply> => {
    if (!holds(request.userId)) return { version: 1, outcome: 'not_held', detail: null, ...empty }
    return { version: 1, ...(await read(request)) }
  }
  return serveByContract(bus, connectorSubjects(instanceId).brokerView, { request: requestContract, reply: replyContract }, answer, logger, {
    answerer: 'broker view handoff',
    invalidRequest: 'broker view request is not BrokerViewRequestV1',
    failed: 'broker view not read',
  })
}
