// oidc-provider ships no type definitions: these cover the parts this package uses, nothing more.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  export interface AdapterPayload {
    grantId?: string
    userCode?: string
    uid?: string
    consumed?: number
    [key: string]: unknown
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>
    find(id: string): Promise<AdapterPayload | undefined>
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>
    findByUid(uid: string): Promise<AdapterPayload | undefined>
    consume(id: string): Promise<void>
    destroy(id: string): Promise<void>
    revokeByGrantId(grantId: string): Promise<void>
  }

  export interface Account {
    accountId: string
    claims(use: string, scope: string): Promise<Record<string, unknown>> | Record<string, unknown>
  }

  export interface KoaContextWithOIDC {
    oidc: {
      client?: { clientId: string }
      session?: { accountId?: string; grantIdFor(clientId: string, grantId?: string): string | undefined }
      result?: { login?: { accountId: string }; consent?: { grantId?: string } }
      params?: Record<string, unknown>
    }
  }

  export interface InteractionDetails {
    uid: string
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> }
    params: Record<string, unknown> & { client_id?: string; scope?: string; login_hint?: string }
    session?: { accountId?: string }
    grantId?: string
  }

  export interface InteractionResults {
    login?: { accountId: string; remember?: boolean }
    consent?: { grantId?: string }
    error?: string
    error_description?: string
    [key: string]: unknown
  }

  export class Grant {
    constructor(properties: { clientId: string; accountId: string })
    jti: string
    addOIDCScope(scope: string): void
    addOIDCClaims(claims: string[]): void
    save(): Promise<string>
    static find(id: string): Promise<Grant | undefined>
  }

  export class Check {
    constructor(
      reason: string,
      description: string,
      check: (ctx: KoaContextWithOIDC) => symbol | boolean | Promise<symbol | boolean>,
    )
    static readonly REQUEST_PROMPT: symbol
    static readonly NO_NEED_TO_PROMPT: symbol
  }

  export interface Prompt {
    name: string
    checks: Check[] & { add(check: Check, index?: number): void }
  }

  export const interactionPolicy: {
    base(): Prompt[] & { get(name: string): Prompt | undefined }
    Check: typeof Check
  }

  export interface Configuration {
    [key: string]: unknown
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration)
    readonly issuer: string
    readonly Grant: typeof Grant
    proxy: boolean
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>
    on(event: string, listener: (...args: unknown[]) => void): this
  }
}
