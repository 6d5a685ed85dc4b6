import { FeedCommandReplyV1, FeedCommandV1, connectorSubjects, contract, type FeedCommand, type FeedCommandReply } from '@signals/contracts'
import type { Bus } from '@signals/bus'
import type { Logger } from '../consumers/close-trades.ts'

const commandContract = contract(FeedCommandV1)
const replyContract = contract(FeedCommandReplyV1)
const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** Thrown when the owner did not take a command: the message comes back and finds the owner of then. */
class CommandNotTakenError extends Error {
  constructor(owner: string, why: string) {
    super(`feed command not taken by ${owner}: ${why}`)
    this.name = 'CommandNotTakenError'
  }
}

/** Hands a feed command to the instance holding the user's shard; throws unless it acted on it. */
export async function forwardCommand(bus: Bus, owner: string, command: FeedCommand, timeoutMs: number): Promise<void> {
  const reply = await bus.nc.request(bus.subject(connectorSubjects(owner).feeds), encoder.encode(JSON.stringify(command)), { timeout: timeoutMs })
  const validation = replyContract.validate(JSON.parse(decoder.decode(reply.data)))
  if (!validation.ok) throw new CommandNotTakenError(owner, 'the reply is not FeedCommandReplyV1')
  if (!validation.value.done) throw new CommandNotTakenError(owner, 'it no longer holds the user')
}

/** Answers `connector.<instanceId>.feeds`: runs the command when this instance holds the user, else says so. */
export function serveCommands(
  bus: Bus,
  instanceId: string,
  run: (command: FeedCommand) => Promise<boolean>,
  logger: Logger,
): { unsubscribe(): void } {
  return bus.nc.subscribe(bus.subject(connectorSubjects(instanceId).feeds), {
    callback: (error, message) => {
      if (error) return logger.warn({ err: error }, 'feed command relay subscription error')
      void (async () => {
        const validation = commandContract.validate(JSON.parse(decoder.decode(message.data)))
        if (!validation.ok) throw new Error('forwarded feed command is not FeedCommandV1')
        const reply: FeedCommandReply = { version: 1, done: await run(validation.value) }
        message.respond(encoder.encode(JSON.stringify(reply)))
      })().catch((failure: unknown) => {
        logger.warn({ err: failure }, 'forwarded feed command failed; the sender retries')
        message.respond(new Uint8Array())
      })
    },
  })
}
