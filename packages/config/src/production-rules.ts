import type { TObject, TSchema } from 'typebox'
import { listOf } from './variables.ts'

export interface Offender {
  variable: string
  problem: string
}

type Properties = Record<string, TSchema & Record<string, unknown>>

/** Development values that must never run in production (the schema's own dev defaults are added). */
const KNOWN_DEVELOPMENT_VALUES = ['signals-dev-client-secret', 'postgres', 'changeme', 'change-me', 'secret', 'password']
const DEVELOPMENT_ADMIN_EMAIL = 'admin@example.com'
const DEVELOPMENT_CLIENT_ID = 'signals-dev'
/** Hosts the development OpenID Connect provider runs under (`pnpm start`, docker compose). */
const DEVELOPMENT_ISSUER_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', 'oidc', 'oidc-provider'])

/**
 * Settings that validate but are unsafe in production, each named with why (issue 15): an http public URL,
 * an open webhook nobody chose, the development administrator, a development secret, the development
 * identity provider. Only variables the service's schema reads are judged.
 */
export function productionOffenders(schema: TObject, value: Record<string, unknown>, env: Record<string, string | undefined>): Offender[] {
  const properties = schema.properties as Properties
  const has = (name: string) => name in properties
  const offenders: Offender[] = []
  if (has('PUBLIC_URL') && typeof value.PUBLIC_URL === 'string' && !value.PUBLIC_URL.startsWith('https://')) {
    offenders.push({ variable: 'PUBLIC_URL', problem: 'must be https in production (session cookies would travel in clear)' })
  }
  if (has('WEBHOOK_SECRET') && value.WEBHOOK_SECRET === undefined && env.ALLOW_OPEN_WEBHOOK !== 'true') {
    offenders.push({ variable: 'WEBHOOK_SECRET', problem: 'is required in production (set ALLOW_OPEN_WEBHOOK=true to accept unsigned webhooks on purpose)' })
  }
  if (has('ADMIN_EMAIL') && listOf(String(value.ADMIN_EMAIL ?? '')).some((email) => email.toLowerCase() === DEVELOPMENT_ADMIN_EMAIL)) {
    offenders.push({ variable: 'ADMIN_EMAIL', problem: `names the development default ${DEVELOPMENT_ADMIN_EMAIL}` })
  }
  offenders.push(...developmentSecrets(properties, value))
  offenders.push(...developmentIdentityProvider(properties, value))
  offenders.push(...unauthenticatedRemotes(properties, value))
  return offenders
}

function developmentSecrets(properties: Properties, value: Record<string, unknown>): Offender[] {
  const known = new Set(KNOWN_DEVELOPMENT_VALUES)
  for (const property of Object.values(properties)) if (typeof property['x-dev-default'] === 'string') known.add(property['x-dev-default'])
  const offenders: Offender[] = []
  for (const [name, property] of Object.entries(properties)) {
    if (property['x-sensitive'] !== true && property['x-secret'] !== true) continue
    const given = value[name]
    if (typeof given !== 'string' || given === '') continue
    // A list (CREDENTIALS_PREVIOUS_KEYS is id:key,id:key) is judged entry by entry, and each entry's parts.
    const parts = given.split(',').flatMap((entry) => [entry.trim(), ...entry.trim().split(':')])
    if (parts.some((part) => known.has(part))) offenders.push({ variable: name, problem: 'is a known development value: generate a real secret' })
  }
  return offenders
}

function developmentIdentityProvider(properties: Properties, value: Record<string, unknown>): Offender[] {
  const offenders: Offender[] = []
  const problem = 'points at the development identity provider, refused in production'
  if ('OIDC_ISSUER' in properties && typeof value.OIDC_ISSUER === 'string') {
    const issuer = URL.parse(value.OIDC_ISSUER)
    if (issuer === null || issuer.protocol !== 'https:' || DEVELOPMENT_ISSUER_HOSTS.has(issuer.hostname)) offenders.push({ variable: 'OIDC_ISSUER', problem })
  }
  if ('OIDC_CLIENT_ID' in properties && value.OIDC_CLIENT_ID === DEVELOPMENT_CLIENT_ID) offenders.push({ variable: 'OIDC_CLIENT_ID', problem })
  return offenders
}

/** Loopback: a server on this machine, which nobody else can reach (the development set-up). */
const isLocalHost = (hostname: string) => hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname)

/**
 * A Redis or NATS server off this machine without credentials: anyone who reaches it could read sessions or
 * publish alerts. NATS credentials may be in the URL or in NATS_USER/NATS_PASSWORD/NATS_TOKEN (when the
 * service reads them); Redis's in the URL (an ACL user, or the default user's password).
 */
function unauthenticatedRemotes(properties: Properties, value: Record<string, unknown>): Offender[] {
  const offenders: Offender[] = []
  if ('REDIS_URL' in properties && typeof value.REDIS_URL === 'string') {
    const redis = URL.parse(value.REDIS_URL)
    if (redis && !isLocalHost(redis.hostname) && redis.password === '') {
      offenders.push({ variable: 'REDIS_URL', problem: `names ${redis.hostname}, not this machine, without credentials: give an ACL user (redis://user:password@${redis.hostname}:${redis.port || 6379})` })
    }
  }
  if ('NATS_URL' in properties && typeof value.NATS_URL === 'string') {
    const inVariables = (typeof value.NATS_USER === 'string' && typeof value.NATS_PASSWORD === 'string') || typeof value.NATS_TOKEN === 'string'
    const bare = listOf(value.NATS_URL)
      .map((entry) => URL.parse(entry))
      .filter((server) => server !== null && !isLocalHost(server.hostname) && server.username === '' && server.password === '')
    if (bare.length > 0 && !inVariables) {
      offenders.push({ variable: 'NATS_URL', problem: `names ${bare.map((server) => server?.hostname).join(', ')}, not this machine, without credentials: give NATS_USER and NATS_PASSWORD (or NATS_TOKEN), or write them in the URL` })
    }
  }
  return offenders
}
