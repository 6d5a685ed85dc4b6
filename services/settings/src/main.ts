import { ConfigError, loadConfigOrExit } from '@signals/config'
import { buildOrExplain, dependenciesOf, runService } from '@signals/http-kit'
import { buildApp } from './app.ts'
import { ConfigSchema, credentialsCipherFrom } from './config.ts'

const config = loadConfigOrExit('settings', ConfigSchema)
try {
  credentialsCipherFrom(config)
} catch (error) {
  if (!(error instanceof ConfigError)) throw error
  process.stderr.write(`settings: ${error.message}\n`)
  process.exit(78)
}
const app = await buildOrExplain('settings', dependenciesOf(config), () => buildApp(config))
await runService(app, { host: config.SETTINGS_HOST, port: config.SETTINGS_PORT })
