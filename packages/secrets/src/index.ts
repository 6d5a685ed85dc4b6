export { CredentialsCipher, SecretKeyError, parseKey, type SealedSecret } from './credentials-cipher.ts'
export { credentialsContext, type CredentialsContext, type CredentialsOwner } from './credentials-context.ts'
export { credentialsContextOf, openCredentialsRow, sealCredentials, sealedSecretOf, type SealedCredentialsRow } from './credentials-row.ts'
