// `pnpm credentials:reseal`: re-seals every broker login (each account's, the trader's credentials included)
// under CREDENTIALS_KEY and the full binding, and every notification channel's secret under CREDENTIALS_KEY. Reads the settings service's configuration (DATABASE_URL, CREDENTIALS_KEY, CREDENTIALS_KEY_ID,
// CREDENTIALS_PREVIOUS_KEYS). Exit 0 when every row is current afterwards, 1 when some row could not be
// opened (named on stderr, by user, login and key id), 78 on bad configuration.
import { loadConfigOrExit, ConfigError } from '@signals/config'
import { createDb } from '@signals/db'
import { ConfigSchema, credentialsCipherFrom } from './config.ts'
import { resealCredentials } from './credentials-reseal.ts'
import { resealChannelSecrets } from './notifications/channel-reseal.ts'

const config = loadConfigOrExit('credentials:reseal', ConfigSchema)
let cipher
try {
  cipher = credentialsCipherFrom(config)
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  process.stderr.write(`credentials:reseal: ${error.message}\n`)
  process.exit(78)
}
const db = createDb({ connectionString: config.DATABASE_URL, max: 2 })
try {
  const report = await resealCredentials(db, cipher)
  process.stdout.write(
    `credentials:reseal: examined ${report.examined}, re-sealed ${report.resealed}, already current ${report.current}, unreadable ${report.unreadable.length} (current key ${cipher.currentKeyId})\n`,
  )
  for (const row of report.unreadable) process.stderr.write(`credentials:reseal: user ${row.userId}, login ${row.loginId}: sealed with key ${row.keyId}, which no configured key opens\n`)
  const channels = await resealChannelSecrets(db, cipher)
  process.stdout.write(
    `credentials:reseal: notification channels: examined ${channels.examined}, re-sealed ${channels.resealed}, already current ${channels.current}, unreadable ${channels.unreadable.length}\n`,
  )
  for (const row of channels.unreadable) process.stderr.write(`credentials:reseal: notification channel ${row.channelId}: sealed with key ${row.keyId}, which no configured key opens\n`)
  process.exitCode = report.unreadable.length + channels.unreadable.length > 0 ? 1 : 0
} finally {
  await db.destroy()
}
