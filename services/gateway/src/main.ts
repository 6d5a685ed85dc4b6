import { loadConfigOrExit } from '@signals/config'
import { buildOrExplain, dependenciesOf, runService } from '@signals/http-kit'
import { buildApp } from './app.ts'
import { ConfigSchema, listenHost } from './config.ts'

const config = loadConfigOrExit('gateway', ConfigSchema)
const app = await buildOrExplain('gateway', dependenciesOf(config), () => buildApp(config))
await runService(app, { host: listenHost(config), port: config.GATEWAY_PORT })
