import t from 'tap'
import { ConfigError } from '@signals/config'
import { loadIngestConfig } from '../src/config.ts'

t.test('defaults: 64 KiB body limit, 1200 alerts a minute per address, no allow-list, no age check', async (t) => {
  const config = loadIngestConfig({})
  t.match(config, { INGEST_BODY_LIMIT: 65536, INGEST_RATE_LIMIT_PER_MINUTE: 1200, PREMIUM_INDICATORS: '' })
  t.equal(config.INGEST_ALLOWED_SOURCES, undefined)
  t.equal(config.ALERT_MAX_AGE_SECONDS, undefined)
  t.equal(config.WEBHOOK_SECRET, undefined)
})

t.test('address lists accept addresses and CIDRs and refuse anything else, naming the variable', async (t) => {
  const config = loadIngestConfig({ INGEST_ALLOWED_SOURCES: '52.89.214.238, 34.212.75.30,10.0.0.0/8, 2001:db8::/32', INGEST_TRUSTED_PROXY: '127.0.0.1,::1' })
  t.equal(config.INGEST_TRUSTED_PROXY, '127.0.0.1,::1')
  for (const bad of ['1.2.3', 'example.com', '1.2.3.4;', '1.2.3.4,,5.6.7.8']) {
    t.throws(() => loadIngestConfig({ INGEST_ALLOWED_SOURCES: bad }), ConfigError, bad)
  }
  t.throws(() => loadIngestConfig({ ALERT_MAX_AGE_SECONDS: '0', WEBHOOK_SECRET: 'short' }), /ALERT_MAX_AGE_SECONDS[\s\S]*WEBHOOK_SECRET|WEBHOOK_SECRET[\s\S]*ALERT_MAX_AGE_SECONDS/)
})
