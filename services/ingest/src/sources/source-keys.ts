import { openBucket, type Bus } from '@signals/bus'
import { Buckets, SignalSourceKeyV1, contract, type SignalSourceKey } from '@signals/contracts'
import { signalSourceTokenHash } from '@signals/http-kit'

const keyContract = contract(SignalSourceKeyV1)
/** What a URL token looks like (32 bytes, base64url): anything else is refused without a lookup. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/

export class SourceKeysUnavailableError extends Error {
  constructor(cause: unknown) {
    super('signal source keys could not be read', { cause })
    this.name = 'SourceKeysUnavailableError'
  }
}

export interface SourceKeys {
  /** The live source of a URL token, or null: unknown, rotated away, revoked or its owner banned. */
  lookup(token: string): Promise<SignalSourceKey | null>
}

/**
 * Reads the SIGNAL_SOURCES bucket (written by the settings service's relay from Postgres). The token is
 * never compared: its SHA-256 is the key looked up, so the time taken says nothing about how close a
 * guess was. A bucket that cannot be read is an unavailable dependency (503, the sender retries).
 */
export function sourceKeysOf(bus: Bus, options: { timeoutMs: number }): SourceKeys {
  let bucket: ReturnType<typeof openBucket> | undefined
  const open = () => {
    bucket ??= openBucket(bus, Buckets.signalSources).catch((error: unknown) => {
      bucket = undefined
      throw error
    })
    return bucket
  }
  return {
    async lookup(token) {
      if (!TOKEN.test(token)) return null
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs)
      })
      let entry
      try {
        entry = await Promise.race([open().then((kv) => kv.get(signalSourceTokenHash(token))), timeout])
      } catch (error) {
        throw new SourceKeysUnavailableError(error)
      } finally {
        clearTimeout(timer)
      }
      if (!entry || entry.operation !== 'PUT') return null
      let value: unknown
      try {
        value = entry.json()
      } catch {
        return null
      }
      return keyContract.check(value) ? value : null
    },
  }
}
