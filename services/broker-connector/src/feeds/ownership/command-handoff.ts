import { FeedCommandReplyV1, FeedCommandV1, connectorSubjects, contract, type FeedCommand, type FeedCommandReply } from '@signals/contracts'
import { requestByContract, serveByContract, type Bus } from '@signals/bus'
import type { Logger } from '../../shared/logger.ts'

const commandContract = contract(FeedCommandV1)
const replyContract = contract(FeedCommandReplyV1)

/** Thrown when the owner did not take a command: the message comes back and finds the owner of then. */
class CommandNotTakenError extends Error {
  constructor(owner: string, why: string) {
    super(`feed command not taken by ${owner}: ${why}`)
    this.name = 'CommandNotTakenError'
  }
}

/** Hands a feed command to the instance holding the user's shard; throws unless it acted on it. */
export async function forwardCommand(bus: Bus, owner: string, command: FeedCommand, timeoutMs: number): Promise<void> {
  const reply = await requestByContract(bus, connectorSubjects(owner).feeds, commandContract, command, replyContract, timeoutMs)
  if (!reply) throw new CommandNotTakenError(owner, 'the reply is not FeedCommandReplyV1')
  if (!reply.done) throw new CommandNotTakenError(owner, 'it no longer holds the user')
}

/** Answers `connector.<instanceId>.feeds`: runs the command when this instance holds the user, else says so. */
export function serveCommands(
  bus: Bus,
  instanceId: string,
  run: (command: FeedCommand) => Promise<boolean>,
  logger: Logger,
): { unsubscribe(): void } {
  const answer = async (command: FeedCommand): Promise<FeedCommandReply> => ({ version: 1, done: await run(command) })
  return serveByContract(bus, connectorSubjects(instanceId).feeds, { request: commandContract, reply: replyContract }, answer, logger, {
    answerer: 'feed command handoff',
    invalidRequest: 'forwarded feed command is not FeedCommandV1',
    failed: 'forwarded feed command failed; the sender retries',
  })
}
