// Streams full to their byte bounds, as a platform that has run for a while has them: each stream of a
// namespace filled with messages of a realistic size (ALERTS and INTAKE with message ids, so the duplicate
// window is full too) until it holds its max_bytes, and every durable consumer moved past the filler, as
// if it had consumed it all (re-created with the same settings, delivering only what comes next; the
// services' own start-up keeps that position: it updates a durable without touching where it delivers).
import { DeliverPolicy, type ConsumerConfig } from '@nats-io/jetstream'
import { headers } from '@nats-io/nats-core'
import type { Bus } from '@signals/bus'
import { Streams } from '@signals/contracts'

/** A message of each stream, about the size of a real one (what a consumer never reads here). */
const FILLER: Record<keyof typeof Streams, { subject: string; bytes: number; withId: boolean }> = {
  alerts: { subject: 'alerts.entry', bytes: 700, withId: true },
  intake: { subject: 'intake.log', bytes: 1_200, withId: true },
  feeds: { subject: 'feeds.bench', bytes: 300, withId: false },
  notifications: { subject: 'notify.events', bytes: 500, withId: false },
  deadLetters: { subject: 'dlq.bench', bytes: 8_192, withId: false },
}

export interface FilledStream {
  stream: string
  maxBytes: number
  bytes: number
  messages: number
}

/** Fills every stream of the bus's namespace to its bound; run while no service consumes (they are stopped). */
export async function fillStreams(bus: Bus): Promise<FilledStream[]> {
  const filled: FilledStream[] = []
  let sequence = 0
  for (const key of Object.keys(Streams) as (keyof typeof Streams)[]) {
    const stream = bus.stream(Streams[key].name)
    const filler = FILLER[key]
    const subject = bus.subject(filler.subject)
    const body = new TextEncoder().encode(JSON.stringify({ filler: 'x'.repeat(filler.bytes - 14) }))
    const { config } = await bus.jsm.streams.info(stream)
    // Core publishes (no ack each) in batches, then the stream's own figures: whatever the server dropped
    // or discarded, it stops only once the stream holds its bound.
    for (;;) {
      const { state } = await bus.jsm.streams.info(stream)
      if (state.bytes + filler.bytes * 2 >= config.max_bytes) {
        filled.push({ stream, maxBytes: config.max_bytes, bytes: state.bytes, messages: state.messages })
        break
      }
      const batch = Math.min(20_000, Math.ceil((config.max_bytes - state.bytes) / filler.bytes) + 10)
      for (let i = 0; i < batch; i++) {
        sequence += 1
        const options = filler.withId ? { headers: withMessageId(`filler-${sequence}`) } : undefined
        bus.nc.publish(subject, body, options)
      }
      await bus.nc.flush()
    }
  }
  return filled
}

function withMessageId(id: string) {
  const h = headers()
  h.set('Nats-Msg-Id', id)
  return h
}

/** Re-creates every durable consumer of the namespace's streams to deliver only messages that come next. */
export async function skipConsumersToEnd(bus: Bus): Promise<number> {
  let moved = 0
  for (const key of Object.keys(Streams) as (keyof typeof Streams)[]) {
    const stream = bus.stream(Streams[key].name)
    const configs: ConsumerConfig[] = []
    for await (const info of bus.jsm.consumers.list(stream)) configs.push(info.config)
    for (const config of configs) {
      const name = config.durable_name ?? config.name
      if (name === undefined) continue
      await bus.jsm.consumers.delete(stream, name)
      const { opt_start_seq: _seq, opt_start_time: _time, ...rest } = config
      await bus.jsm.consumers.add(stream, { ...rest, deliver_policy: DeliverPolicy.New })
      moved += 1
    }
  }
  return moved
}
