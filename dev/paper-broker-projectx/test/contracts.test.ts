import t from 'tap'
import { findContract } from '@signals/dev-paper-broker/engine'
import { contractOfId, projectXIdOf, searchContracts } from '../src/contracts.ts'

const OCTOBER_2025 = new Date('2025-10-01T12:00:00Z')

t.test('ProjectX contract ids: CON.F.US.<symbol id>.<month><yy>, both ways', async (t) => {
  for (const [name, id] of [
    ['NQZ5', 'CON.F.US.ENQ.Z25'],
    ['MNQZ5', 'CON.F.US.MNQ.Z25'],
    ['ESH6', 'CON.F.US.EP.H26'],
    ['MESM6', 'CON.F.US.MES.M26'],
    ['CLF6', 'CON.F.US.CLE.F26'],
  ] as const) {
    const contract = findContract(name)
    if (!contract) throw new Error(name)
    t.equal(projectXIdOf(contract, OCTOBER_2025), id, `${name} is ${id}`)
    t.equal(contractOfId(id, OCTOBER_2025)?.name, name, `${id} is ${name}`)
  }
  t.equal(contractOfId('CON.F.US.ENQ.Z15', OCTOBER_2025), null, 'a contract outside the listed decade is not found')
  t.equal(contractOfId('CON.F.US.NQ.Z25', OCTOBER_2025), null, "NQ is ENQ in ProjectX's ids")
  t.equal(contractOfId('NQZ5', OCTOBER_2025), null)
})

t.test('Contract/search by name: a dated contract, or a root and its next contract, front one active', async (t) => {
  t.same(searchContracts('mnqz5', OCTOBER_2025).map((contract) => [contract.id, contract.activeContract]), [['CON.F.US.MNQ.Z25', true]])
  t.same(searchContracts('ES', OCTOBER_2025).map((contract) => [contract.id, contract.activeContract]), [['CON.F.US.EP.Z25', true], ['CON.F.US.EP.H26', false]])
  t.same(searchContracts('ENQ', OCTOBER_2025).map((contract) => contract.name), ['NQZ5', 'NQH6'], "ProjectX's symbol id finds the root too")
  t.same(searchContracts('nothing like it', OCTOBER_2025), [])
})
