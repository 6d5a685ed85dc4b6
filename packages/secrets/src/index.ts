export { CredentialsCipher, SecretKeyError, parseKey, type SealedSecret } from './credentials-cipher.ts'
