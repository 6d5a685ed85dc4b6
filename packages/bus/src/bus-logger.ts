/** Where the bus reports what it does (a pino logger fits). */
export interface BusLogger {
  info(object: object, message: string): void
  warn(object: object, message: string): void
  error(object: object, message: string): void
}

export const silentLogger: BusLogger = { info: () => undefined, warn: () => undefined, error: () => undefined }
