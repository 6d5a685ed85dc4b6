import t from 'tap'
import { BusUnavailableError } from '@signals/bus'
import { DatabaseUnavailableError } from '@signals/db'
import { isDependencyDown } from '../../src/index.ts'

t.test('a dependency is down by type or code, never by the words of the message', async (t) => {
  t.ok(isDependencyDown(new BusUnavailableError('publish on x was not acknowledged in time')))
  t.ok(isDependencyDown(new DatabaseUnavailableError('database unavailable: Connection terminated unexpectedly')))
  t.ok(isDependencyDown(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })))
  t.ok(isDependencyDown(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })))
  t.notOk(isDependencyDown(new Error('Connection terminated unexpectedly')), 'an uncoded error is not classified by its text')
  t.notOk(isDependencyDown(Object.assign(new Error('duplicate key'), { code: '23505' })))
  t.notOk(isDependencyDown(undefined))
})
