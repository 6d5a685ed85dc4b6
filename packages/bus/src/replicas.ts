import type { JetStreamManager, StreamConfig } from '@nats-io/jetstream'
import type { BusLogger } from './bus-logger.ts'

/**
 * Updates a stream to `config`. A clustered server moves a stream to a new replica count on update; a
 * single server (or a cluster with fewer nodes than asked) refuses. Then the stream keeps the replicas it
 * has, every other setting is still applied, and the mismatch is logged as an error naming BUS_REPLICAS:
 * the service stays up on the stream that works rather than failing every start-up on it.
 */
export async function updateStream(
  jsm: JetStreamManager,
  config: Partial<StreamConfig> & { name: string },
  logger: BusLogger,
): Promise<void> {
  try {
    await jsm.streams.update(config.name, config)
  } catch (error) {
    const current = (await jsm.streams.info(config.name)).config.num_replicas
    if (config.num_replicas === undefined || current === config.num_replicas) throw error
    logger.error(
      { stream: config.name, replicas: current, wanted: config.num_replicas, err: String(error) },
      `stream ${config.name} keeps ${current} replica(s): the server refused ${config.num_replicas} (BUS_REPLICAS); check it against the NATS cluster size`,
    )
    await jsm.streams.update(config.name, { ...config, num_replicas: current })
  }
}
