export { startPaperBroker, type PaperAccount, type PaperBroker, type PaperBrokerOptions } from './paper-broker.ts'
export * from './protocol.ts'
