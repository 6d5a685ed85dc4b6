/** What the connector's parts log through: Fastify's pino logger, or a test's. */
export interface Logger {
  info(object: object, message: string): void
  warn(object: object, message: string): void
}
