import { loadConfigOrExit } from '@signals/config'
import { buildOrExplain, dependenciesOf, runService } from '@signals/http-kit'
import { buildApp } from './app.ts'
import { ConfigSchema, listenHost } from './config.ts'

const config = loadConfigOrExit('ingest', ConfigSchema)
const app = await buildOrExplain('ingest', dependenciesOf(config), () => buildApp(config))
await runService(app, { host: listenHost(config), port: config.INGEST_PORT })
