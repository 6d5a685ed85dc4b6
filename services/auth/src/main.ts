import { loadConfigOrExit } from '@signals/config'
import { runService } from '@signals/http-kit'
import { buildApp } from './app.ts'
import { ConfigSchema } from './config.ts'

const config = loadConfigOrExit('auth', ConfigSchema)
const app = await buildApp(config)
await runService(app, { host: config.AUTH_HOST, port: config.AUTH_PORT })
