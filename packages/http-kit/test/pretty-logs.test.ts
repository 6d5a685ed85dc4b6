import t from 'tap'
import { loggerOptions, prettyLogs } from '../src/logger.ts'

t.test('pretty logs only for a terminal (or a supervisor at one), never in production', async (t) => {
  t.equal(prettyLogs({}, true), true, 'a terminal in development')
  t.equal(prettyLogs({}, false), false, 'a pipe or a file: JSON lines')
  t.equal(prettyLogs({ LOG_PRETTY: '1' }, false), true, 'pnpm start/dev at a terminal says so through LOG_PRETTY')
  t.equal(prettyLogs({ NODE_ENV: 'production' }, true), false, 'production: JSON lines even at a terminal')
  t.equal(prettyLogs({ NODE_ENV: 'production', LOG_PRETTY: '1' }, false), false)
})

t.test('pino-pretty is loaded only as a transport, and only when asked', async (t) => {
  t.match(loggerOptions({ service: 's', level: 'info', pretty: true }), { transport: { target: 'pino-pretty' } })
  t.notOk('transport' in loggerOptions({ service: 's', level: 'info' }), 'no transport otherwise')
})
