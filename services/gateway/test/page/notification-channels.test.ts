import t from 'tap'
import { NOTIFICATION_EVENT_KINDS } from '@signals/contracts'

import * as page from '../../web/src/notification-channels.ts'
import type { Channel } from '../../web/src/notification-channels.ts'

const email: Channel = {
  kind: 'email',
  name: 'Mail',
  enabled: true,
  events: ['fill'],
  settings: { smtpHost: 'mail.example.com', smtpPort: 587, smtpTls: false, smtpUsername: null, from: 'a@example.com', to: 'b@example.com' },
  lastSentAt: '2026-11-26T10:00:00Z',
  lastFailedAt: '2026-11-26T11:00:00Z',
  lastError: 'The SMTP server refused',
}

t.test('the page offers every event filter the contract names, in its order', async (t) => {
  t.same(page.EVENTS.map(([id]) => id), [...NOTIFICATION_EVENT_KINDS])
})

t.test('turning a channel off sends its shown settings back without the secret and without nulls', async (t) => {
  t.same(page.bodyOf(email, { enabled: false }), {
    kind: 'email',
    name: 'Mail',
    enabled: false,
    events: ['fill'],
    smtpHost: 'mail.example.com',
    smtpPort: 587,
    smtpTls: false,
    from: 'a@example.com',
    to: 'b@example.com',
  })
})

t.test('the last failure is shown only while it is newer than the last send', async (t) => {
  t.match(page.describe(email), /^E-mail · on · last sent .* · last failure: The SMTP server refused$/)
  t.notMatch(page.describe({ ...email, lastSentAt: '2026-11-26T12:00:00Z' }), /last failure/)
})
