import t from 'tap'
import { contractSpec, rootOf } from '../src/index.ts'

t.test('symbols map to their contract root', async (t) => {
  const cases: [string, string | null][] = [
    ['NQ', 'NQ'],
    ['NQ1!', 'NQ'],
    ['nq2!', 'NQ'],
    ['CME_MINI:NQ1!', 'NQ'],
    ['NQZ6', 'NQ'],
    ['NQZ2026', 'NQ'],
    ['MNQ1!', 'MNQ'],
    ['MNQZ6', 'MNQ'],
    ['CME_MINI:MNQH7', 'MNQ'],
    ['ES1!', 'ES'],
    ['MESM6', 'MES'],
    ['YM1!', 'YM'],
    ['MYMZ6', 'MYM'],
    ['RTY1!', 'RTY'],
    ['M2KZ6', 'M2K'],
    ['NYMEX:CL1!', 'CL'],
    ['MCLF7', 'MCL'],
    ['COMEX:GC1!', 'GC'],
    ['MGCG7', 'MGC'],
    [' es1! ', 'ES'],
    ['AAPL', null],
    ['NQX', null],
    ['NQ1', null],
    ['', null],
    ['{{ticker}}', null],
  ]
  for (const [symbol, root] of cases) t.equal(rootOf(symbol), root, `${JSON.stringify(symbol)} -> ${root}`)
})

t.test('the contract table has tick size and point value for the required roots', async (t) => {
  for (const root of ['ES', 'MES', 'NQ', 'MNQ', 'YM', 'MYM', 'RTY', 'M2K', 'CL', 'MCL', 'GC', 'MGC']) {
    const spec = contractSpec(root)
    t.ok(spec, `${root} is known`)
    t.ok(Number(spec?.tickSize) > 0 && Number(spec?.pointValue) > 0)
  }
  t.equal(contractSpec('MNQ')?.pointValue, '2')
  t.equal(contractSpec('nq')?.pointValue, '20')
})
