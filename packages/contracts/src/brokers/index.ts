export { BracketKind, BrokerCapabilities, BrokerIdKind, BrokerIdSpaces, type BrokerDescriptor } from './broker-descriptor.ts'
export { BROKERS, BROKER_NAMES, isBrokerName, type BrokerCredentials, type SealedBrokerCredentials } from './registry.ts'
export { BrokerFormField, BrokerInfo, brokerInfoOf, brokerInfos, formFieldsOf } from './broker-form.ts'
export { checkBrokerCredentials, openedCredentialsOf, sealedCredentialsOf, type CredentialsCheck } from './credentials-check.ts'
