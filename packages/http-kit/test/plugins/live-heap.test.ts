import t from 'tap'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { createServiceApp } from '../../src/index.ts'

setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void
const MiB = 1024 * 1024

t.test('/metrics reports the heap in use after the last full collection: it rises by what is kept and falls when it is let go', async (t) => {
  const app = await createServiceApp({ service: 'kit-test', logLevel: 'silent' })
  t.teardown(() => app.close())
  const liveHeap = async () => {
    const text = (await app.inject({ method: 'GET', url: '/metrics' })).body
    const value = /^nodejs_heap_used_after_gc_bytes\{[^}]*\} (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(text)?.[1]
    return value === undefined ? Number.NaN : Number(value)
  }
  // The observer hears of a collection shortly after it: wait until the gauge moves as expected.
  const afterCollection = async (expect: (bytes: number) => boolean) => {
    for (let tries = 0; tries < 200; tries++) {
      collect()
      await new Promise((resolve) => setImmediate(resolve))
      const bytes = await liveHeap()
      if (expect(bytes)) return bytes
    }
    return liveHeap()
  }
  const before = await afterCollection((bytes) => bytes > 0)
  t.ok(before > 0, 'a figure from the start')

  let kept: string[] | null = Array.from({ length: 400_000 }, (_, i) => `kept-${i}-${'x'.repeat(40)}`)
  const holding = await afterCollection((bytes) => bytes > before + 20 * MiB)
  t.ok(holding > before + 20 * MiB, `~40 MiB kept shows: ${((holding - before) / MiB).toFixed(1)} MiB more`)
  t.equal(kept.length, 400_000)

  kept = null
  const released = await afterCollection((bytes) => bytes < holding - 20 * MiB)
  t.ok(released < holding - 20 * MiB, `let go, it falls again: ${((holding - released) / MiB).toFixed(1)} MiB less`)
})
