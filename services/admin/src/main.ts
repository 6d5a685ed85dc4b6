import { loadConfigOrExit } from '@signals/config'
import { buildOrExplain, dependenciesOf, runService } from '@signals/http-kit'
import { buildApp } from './app.ts'
import { ConfigSchema } from './config.ts'

const config = loadConfigOrExit('admin', ConfigSchema)
const app = await buildOrExplain('admin', dependenciesOf(config), () => buildApp(config))
await runService(app, { host: config.ADMIN_HOST, port: config.ADMIN_PORT })
