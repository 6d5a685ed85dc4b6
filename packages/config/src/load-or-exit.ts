import type { TObject, Static } from 'typebox'
import { loadConfig } from './load-config.ts'
import { ConfigError } from './errors.ts'

/** For `main.ts`: loads the configuration, or prints one clear message and exits with status 78 (EX_CONFIG). */
export function loadConfigOrExit<S extends TObject>(service: string, schema: S): Static<S> {
  try {
    return loadConfig(schema)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    process.stderr.write(`${service}: ${error.message}\n`)
    process.exit(78)
  }
}
