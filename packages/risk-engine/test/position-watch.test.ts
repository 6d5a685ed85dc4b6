import t from 'tap'
import { positionBreach, sizeEntry } from '../src/index.ts'
import { accountWith, configWith, input } from './fixtures.ts'

const hard = configWith({ dailyLossLimit: { enabled: true, amount: 1000, type: 'hard' } })
const soft = configWith({ dailyLossLimit: { enabled: true, amount: 1000, type: 'soft' } })

t.test('a hard daily loss limit reached by realized plus open pnl is a breach', async (t) => {
  t.equal(positionBreach(hard, accountWith({ todayRealizedPnl: '-400', openPnl: '-599' })), null, '999 lost: not yet')
  t.match(positionBreach(hard, accountWith({ todayRealizedPnl: '-400', openPnl: '-600' })), {
    code: 'daily_loss_limit_hard',
    cause: "today's loss of $1,000.00 (open pnl -$600.00) reached the hard daily loss limit of $1,000.00",
    reason: /^Today's loss .*: every position is flattened and trading stops for the session\.$/,
  })
})

t.test('a soft limit is no breach (entries are refused by the entry rules, positions kept)', async (t) => {
  const account = accountWith({ openPnl: '-1500' })
  t.equal(positionBreach(soft, account), null)
  t.match(sizeEntry(input({ config: soft, account })), { kind: 'refuse', code: 'daily_loss_limit', reason: /Today's loss of \$1,500\.00/ }, 'the next entry counts the open loss')
})

t.test('equity at or below the floor through an open loss is a breach, in every trailing mode', async (t) => {
  // 50,000 with the peak at 51,000 and a 2,000 trailing amount: the floor is 49,000.
  const account = accountWith({ peakBalance: '51000', openPnl: '-1000' })
  for (const mode of ['intraday_unrealized', 'intraday_realized', 'end_of_day'] as const) {
    t.match(positionBreach(configWith({ trailingDrawdown: { mode } }), account), { code: 'drawdown_floor', cause: new RegExp(`equity of \\$49,000\\.00 \\(open pnl -\\$1,000\\.00\\) is at or below the ${mode} drawdown floor of \\$49,000\\.00`) }, mode)
  }
  t.equal(positionBreach(configWith(), accountWith({ peakBalance: '51000', openPnl: '-999.99' })), null, 'a cent above the floor')
})

t.test('a halt with its recorded reason refuses with that reason', async (t) => {
  const decision = sizeEntry(input({ config: hard, account: accountWith({ haltedForSession: true, haltReason: 'the floor was reached' }) }))
  t.match(decision, { kind: 'refuse', code: 'daily_loss_limit_hard', reason: 'Trading is halted for this session: the floor was reached; entries resume next session.' })
})
