import closeWithGrace from 'close-with-grace'
import type { FastifyInstance } from 'fastify'

/** For `main.ts`: closes the app cleanly on SIGINT/SIGTERM or a fatal error, then listens. */
export async function runService(app: FastifyInstance, listen: { host: string; port: number }): Promise<void> {
  closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'fatal error, closing')
    else app.log.info({ signal }, 'closing')
    await app.close()
  })
  await app.listen(listen)
}
