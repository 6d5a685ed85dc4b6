import { BlockList, isIP } from 'node:net'
import { listOf } from '@signals/config'

/**
 * INGEST_ALLOWED_SOURCES as a matcher of client addresses (single addresses or CIDRs, IPv4 or IPv6;
 * an IPv4-mapped IPv6 address counts as its IPv4 form). Null when unset: every source is allowed.
 */
export function sourceAllowList(setting: string | undefined): ((address: string) => boolean) | null {
  const entries = listOf(setting)
  if (entries.length === 0) return null
  const list = new BlockList()
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/')
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4'
    if (isIP(address) === 0) throw new Error(`INGEST_ALLOWED_SOURCES: ${JSON.stringify(entry)} is not an address or CIDR`)
    if (prefix === undefined) list.addAddress(address, family)
    else list.addSubnet(address, Number(prefix), family)
  }
  return (address) => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1]
    const plain = mapped ?? address
    const family = isIP(plain)
    if (family === 0) return false
    return list.check(plain, family === 6 ? 'ipv6' : 'ipv4')
  }
}
