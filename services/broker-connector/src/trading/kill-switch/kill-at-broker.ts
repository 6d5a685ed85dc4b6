import type { Database, Kysely } from '@signals/db'
import type { KillSwitchRunReply } from '@signals/contracts'
import { BrokerError, isDone, type BrokerSession } from '../../feeds/broker/broker-adapter.ts'
import { openTradeContracts, type BrokerScope } from '../../repositories/broker-trades.ts'
import { cancelQuietly } from '../positions/cancel-quietly.ts'
import type { FlattenRunner } from '../positions/flatten-runner.ts'

type Done = Exclude<KillSwitchRunReply['outcome'], 'not_held' | 'no_session'>

/**
 * The kill switch at the broker, with the user's session: first our open trades' contracts through the
 * durable flattens (their trades close from the liquidation's fills, as any exit), then every order still
 * working on the account is cancelled and every other position is flattened (`order/liquidateposition`),
 * ours or not. A contract of our trades is not liquidated a second time here: its exit was just sent, and a
 * second liquidation before the first one's fill could reverse the position.
 */
export async function killAtBroker(
  db: Kysely<Database>,
  flattens: FlattenRunner,
  userId: string,
  session: BrokerSession,
  scope: BrokerScope,
  /** Why, as the flattens and halted entries say it (a flatten-everything alert uses this too). */
  cause = 'kill switch',
): Promise<{ outcome: Done; detail: string }> {
  const accountId = session.snapshot.account.id
  const ours = new Set((await openTradeContracts(db, userId, scope)).map((open) => Number(open.broker_contract_id)))
  const problems: string[] = []
  if ((await flattens.flattenEverything(userId, session, cause)) === 'waiting') problems.push('an exit of your open trades waits for the broker (the trade shows why)')

  const attempt = async (what: string, run: () => Promise<boolean>): Promise<boolean> => {
    try {
      return await run()
    } catch (error) {
      if (!(error instanceof BrokerError)) throw error
      problems.push(`${what}: ${error.message}`)
      return false
    }
  }
  let cancelled = 0
  const working = (await session.listOrders({ fresh: true })).filter((order) => order.accountId === accountId && !isDone(order.status))
  for (const order of working) if (await attempt(`order ${order.id} not cancelled`, () => cancelQuietly(session, order.id))) cancelled++

  let flattened = 0
  const open = (await session.listPositions({ fresh: true })).filter((position) => position.accountId === accountId && position.netPos !== 0 && !ours.has(position.contractId))
  for (const position of open) {
    const liquidated = await attempt(`position in contract ${position.contractId} not flattened`, async () => {
      await session.liquidatePosition(position.contractId)
      return true
    })
    if (liquidated) flattened++
  }
  const sentences = [
    ours.size === 0 ? 'no open trades of yours' : `exits sent for your open trades in ${ours.size} contract(s)`,
    `${flattened} other position(s) flattened`,
    `${cancelled} working order(s) cancelled`,
  ]
  const detail = `${sentences.join(', ')} on account ${session.snapshot.account.name}${problems.length === 0 ? '' : `; not done: ${problems.join('; ')}`}`
  return { outcome: problems.length === 0 ? 'done' : 'incomplete', detail }
}
