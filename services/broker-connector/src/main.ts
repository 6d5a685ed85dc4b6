import { loadConfigOrExit } from '@signals/config'
import { buildOrExplain, dependenciesOf, runService } from '@signals/http-kit'
import { buildApp } from './app.ts'
import { ConfigSchema } from './config.ts'

const config = loadConfigOrExit('broker-connector', ConfigSchema)
const app = await buildOrExplain('broker-connector', dependenciesOf(config), () => buildApp(config))
await runService(app, { host: config.BROKER_CONNECTOR_HOST, port: config.BROKER_CONNECTOR_PORT })
