import t from 'tap'
import { CONTRACTS } from '@signals/instruments'
import { contractById, findContract } from '../src/index.ts'

t.test('every root has dated contracts with ids that are the same every run and map back to the name', async (t) => {
  const ids = new Set<number>()
  for (const spec of CONTRACTS) {
    for (const name of [`${spec.root}H7`, `${spec.root}Z6`, `${spec.root}F0`]) {
      const contract = findContract(name)
      t.equal(contract?.name, name)
      t.equal(contract?.spec.root, spec.root)
      t.equal(contractById(contract?.id as number)?.name, name)
      ids.add(contract?.id as number)
    }
  }
  t.equal(ids.size, CONTRACTS.length * 3, 'no two contracts share an id')
  t.equal(findContract('MNQZ6')?.id, 3_003_611, 'derived from the name, not from the order of calls')
  t.equal(findContract('mnqz6')?.name, 'MNQZ6')
  t.equal(findContract('MNQZ26'), null, 'Tradovate names carry one year digit')
  t.equal(findContract('MNQ1!'), null)
  t.equal(findContract('MNQA6'), null)
  t.equal(findContract('AAPL'), null)
  t.equal(contractById(42), null)
})
