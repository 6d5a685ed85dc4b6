import type { Adapter, AdapterPayload } from 'oidc-provider'

interface Entry {
  payload: AdapterPayload
  expiresAt: number
}

/**
 * oidc-provider's storage for one provider instance, in memory (a development provider keeps nothing).
 * Our own rather than the library's quick-start adapter, which is process-global and shared by every
 * provider started in the same process.
 */
export class MemoryStore {
  readonly #models = new Map<string, Map<string, Entry>>()
  readonly #sweeper: NodeJS.Timeout

  constructor(sweepEveryMs = 60_000) {
    this.#sweeper = setInterval(() => this.sweep(), sweepEveryMs)
    this.#sweeper.unref()
  }

  adapterFor(model: string): Adapter {
    let entries = this.#models.get(model)
    if (entries === undefined) {
      entries = new Map()
      this.#models.set(model, entries)
    }
    return new MemoryAdapter(entries)
  }

  sweep(now = Date.now()): void {
    for (const entries of this.#models.values()) {
      for (const [id, entry] of entries) if (entry.expiresAt <= now) entries.delete(id)
    }
  }

  close(): void {
    clearInterval(this.#sweeper)
    this.#models.clear()
  }
}

class MemoryAdapter implements Adapter {
  constructor(private readonly entries: Map<string, Entry>) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    this.entries.set(id, { payload: structuredClone(payload), expiresAt: Date.now() + expiresIn * 1000 })
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const entry = this.entries.get(id)
    if (entry === undefined) return undefined
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(id)
      return undefined
    }
    return structuredClone(entry.payload)
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findWhere((payload) => payload.userCode === userCode)
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findWhere((payload) => payload.uid === uid)
  }

  async consume(id: string): Promise<void> {
    const entry = this.entries.get(id)
    if (entry !== undefined) entry.payload.consumed = Math.floor(Date.now() / 1000)
  }

  async destroy(id: string): Promise<void> {
    this.entries.delete(id)
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    for (const [id, entry] of this.entries) if (entry.payload.grantId === grantId) this.entries.delete(id)
  }

  private async findWhere(matches: (payload: AdapterPayload) => boolean): Promise<AdapterPayload | undefined> {
    for (const [id, entry] of this.entries) if (matches(entry.payload)) return this.find(id)
    return undefined
  }
}
