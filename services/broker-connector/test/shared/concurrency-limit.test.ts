import t from 'tap'
import { ConcurrencyLimit } from '../../src/shared/concurrency-limit.ts'

t.test('at most max tasks run at once; the others start in order as slots free; a failure frees its slot', async (t) => {
  const limit = new ConcurrencyLimit(2)
  let running = 0
  let most = 0
  const started: number[] = []
  const gates = Array.from({ length: 5 }, () => {
    let resolve = () => {}
    const promise = new Promise<void>((done) => (resolve = done))
    return { promise, resolve }
  })
  const tasks = gates.map((gate, index) =>
    limit.run(async () => {
      started.push(index)
      most = Math.max(most, ++running)
      await gate.promise
      running--
      if (index === 1) throw new Error('task 1 fails')
      return index
    }),
  )
  await new Promise((resolve) => setImmediate(resolve))
  t.same(started, [0, 1], 'two start, three wait')
  gates[1]!.resolve()
  await t.rejects(tasks[1]!, { message: 'task 1 fails' })
  t.same(started, [0, 1, 2], 'the failed task\'s slot went to the next')
  for (const gate of gates) gate.resolve()
  t.same(await Promise.all([tasks[0], tasks[2], tasks[3], tasks[4]]), [0, 2, 3, 4])
  t.equal(most, 2, 'never more than two at once')
})
