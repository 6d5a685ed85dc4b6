import Type from 'typebox'
import { credentialSecret, type BrokerCapabilities, type BrokerDescriptor, type BrokerIdSpaces } from './broker-descriptor.ts'
import { username } from './tradovate.ts'

// ProjectX's Gateway API (TopstepX and the other firms that run on ProjectX): `Auth/loginKey` with the
// user name and an API key. The connector's `broker/projectx/` speaks it (docs/decisions/projectx-adapter.md).

const apiKey = credentialSecret('API key', "the ProjectX API key of the login (the firm's platform settings, API); stored sealed, never shown")

const ProjectXCredentials = Type.Object({ username, apiKey }, { additionalProperties: false })

const PROJECTX_CAPABILITIES: BrokerCapabilities = {
  // Order/place's stopLossBracket / takeProfitBracket, in signed ticks from the entry's price. An account
  // set to Position Brackets refuses them (the adapter says so; placing the legs ourselves is not built yet).
  brackets: ['tick_offsets'],
  // Order/modify (size, limitPrice, stopPrice)
  modify: true,
  // order type TrailingStop (5)
  trailing: true,
  // Position/partialCloseContract
  partialClose: true,
}

// Contract ids are text (`CON.F.US.ENQ.Z25`); the connector carries them as a reversible number (contract-ids.ts).
const PROJECTX_IDS: BrokerIdSpaces = { account: 'integer', contract: 'text', order: 'integer', fill: 'integer' }

export const projectx = {
  label: 'ProjectX (TopstepX and other ProjectX firms)',
  credentials: ProjectXCredentials,
  capabilities: PROJECTX_CAPABILITIES,
  ids: PROJECTX_IDS,
} satisfies BrokerDescriptor
