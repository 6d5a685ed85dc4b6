// The development OpenID Connect provider, as `pnpm start` runs it. Refuses to start in production.
import { ProductionRefusedError, startDevOidcProvider } from './index.ts'
import { loadProviderConfig, providerOptions } from './config.ts'

try {
  // Before reading the configuration: in production the refusal is the message that matters.
  if (process.env.NODE_ENV === 'production') throw new ProductionRefusedError()
  const provider = await startDevOidcProvider(providerOptions(loadProviderConfig()))
  process.stdout.write(`development OpenID Connect provider at ${provider.issuer} (port ${provider.port}): any e-mail signs in\n`)
  const stop = () => {
    provider.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
}
