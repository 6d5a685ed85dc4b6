export { startProjectXPaperBroker, type ProjectXPaperBroker, type ProjectXPaperBrokerOptions } from './paper-broker.ts'
export type { ProjectXPaperAccount } from './accounts.ts'
