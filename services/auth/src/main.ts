import { loadConfigOrExit } from '@signals/config'
import { buildOrExplain, dependenciesOf, runService } from '@signals/http-kit'
import { buildApp } from './app.ts'
import { ConfigSchema } from './config.ts'

const config = loadConfigOrExit('auth', ConfigSchema)
const app = await buildOrExplain('auth', dependenciesOf(config), () => buildApp(config))
await runService(app, { host: config.AUTH_HOST, port: config.AUTH_PORT })
