// Where a shared sandbox may send webhooks: a merchant key must not turn deliveries (and the answers
// logged) into requests to the host's own network, so every address outside global unicast (by
// ipaddr.js's range classification) and the host's own addresses are refused unless
// --allow-webhook-to names them. The policy is the sandbox's, stored with it (egress-policy.ts).
import dns from 'node:dns'
import net from 'node:net'
import os from 'node:os'
import type { Socket } from 'node:net'
import ipaddr from 'ipaddr.js'
import type { buildConnector as BuildConnector } from 'undici'

export const ALLOW_WEBHOOK_TO_FLAG = '--allow-webhook-to'

/** The one ipaddr.js range a shared sandbox sends to; every other range name is refused. */
const GLOBAL_UNICAST = 'unicast'
// ipaddr.js calls the rest of ::/8 (IPv4-compatible ::a.b.c.d among it) unicast too, but IANA's
// global unicast space is 2000::/3: nothing outside it routes to a public receiver.
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3')

/**
 * Why `address` (canonical text, as the URL parser or a socket gives it) is internal: its ipaddr.js
 * range name, or undefined for global unicast. An IPv4-mapped address is judged by its IPv4
 * address (a connection to it goes there); the other forms that embed IPv4 (rfc6145, rfc6052
 * NAT64, 6to4, teredo) are refused whole, since the IPv4 address inside may be an internal one.
 */
export function internalRange(address: string): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6
  try {
    parsed = ipaddr.parse(address)
  } catch {
    return 'unknown'
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address()
  const range: string = parsed.range()
  if (range !== GLOBAL_UNICAST) return range
  if (parsed.kind() === 'ipv6' && !parsed.match(IPV6_GLOBAL_UNICAST)) return 'outside 2000::/3'
  return undefined
}

/** This host's interface addresses (a public address of its own is still the host itself). */
const interfaceAddresses = (): string[] =>
  Object.values(os.networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address))

/** A connection the egress rule refused; its message is the same whatever is listening there. */
export class EgressRefusedError extends Error {
  readonly code = 'EWEBHOOKEGRESS'
}

/** An --allow-webhook-to entry that is neither a CIDR range, an address nor a host name. */
export class AllowListError extends Error {}

export interface WebhookEgressOptions {
  /** Refuse internal targets (sandbox start --shared, or a non-loopback --host). */
  shared?: boolean
  /** CIDR ranges ("10.1.0.0/16"), addresses or host names a shared sandbox may send to anyway. */
  allow?: readonly string[]
  /** The host's own addresses, read at each check (interfaces come and go); os.networkInterfaces() by default. */
  ownAddresses?: () => string[]
}

export class WebhookEgress {
  readonly shared: boolean
  readonly #allowed = new net.BlockList()
  readonly #allowedHosts = new Set<string>()
  readonly #ownAddresses: () => string[]

  constructor(options: WebhookEgressOptions = {}) {
    this.shared = options.shared ?? false
    this.#ownAddresses = options.ownAddresses ?? interfaceAddresses
    for (const entry of options.allow ?? []) this.#allow(entry)
  }

  /** Why a webhook URL is refused as given (an internal address or a localhost name), or undefined. */
  urlRefusal(url: string): string | undefined {
    if (!this.shared || !URL.canParse(url)) return undefined
    const host = hostOf(url)
    if (this.#allowedHosts.has(host)) return undefined
    // A trailing dot names the same host (an absolute name).
    const name = host.replace(/\.$/, '')
    if (name === 'localhost' || name.endsWith('.localhost')) return this.#refusal(host, 'a loopback name')
    return net.isIP(host) === 0 ? undefined : this.addressRefusal(host, host)
  }

  /** Why connecting to `address` (resolved from `host`) is refused, or undefined. */
  addressRefusal(address: string, host: string): string | undefined {
    if (!this.shared || this.#allowedHosts.has(host)) return undefined
    const target = host === address ? address : `${host} (${address})`
    const canonical = net.isIP(address) === 0 ? undefined : canonicalAddress(address)
    if (canonical === undefined) return this.#refusal(host, 'an unknown address')
    if (this.#allowed.check(canonical, net.isIPv6(canonical) ? 'ipv6' : 'ipv4')) return undefined
    const range = internalRange(canonical)
    if (range !== undefined) return this.#refusal(target, `an internal address (ipaddr.js range ${range})`)
    if (this.#ownAddresses().some((own) => canonicalAddress(own) === canonical)) return this.#refusal(target, "this host's own address")
    return undefined
  }

  /** The address actually connected to is checked too: a public-looking name may resolve to a private one. */
  connector(buildConnector: typeof BuildConnector): ReturnType<typeof BuildConnector> | undefined {
    if (!this.shared) return undefined
    const connect = buildConnector({ lookup: this.#lookup })
    return (options, callback) =>
      connect(options, (error, socket) => {
        if (error || !socket) return callback(error ?? new Error('No connection'), null)
        const refusal = this.addressRefusal((socket as Socket).remoteAddress ?? '', bare(options.hostname))
        if (refusal === undefined) return callback(null, socket)
        socket.destroy()
        callback(new EgressRefusedError(refusal), null)
      })
  }

  readonly #lookup: net.LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0)
      const usable = addresses.filter(({ address }) => this.addressRefusal(address, hostname) === undefined)
      const first = usable[0]
      if (first === undefined) {
        return callback(
          new EgressRefusedError(this.addressRefusal(addresses[0]?.address ?? '', hostname) ?? `${hostname} is refused`),
          '',
          0,
        )
      }
      if ((options as dns.LookupAllOptions).all) (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, usable)
      else callback(null, first.address, first.family)
    })
  }

  #refusal(target: string, what: string): string {
    return `${target} is ${what}: a shared sandbox sends webhooks to global unicast addresses only (allow more with ${ALLOW_WEBHOOK_TO_FLAG}, a CIDR range or a host)`
  }

  #allow(entry: string): void {
    const [address = '', prefix, ...rest] = entry.trim().split('/')
    const type = net.isIPv6(address) ? 'ipv6' : 'ipv4'
    if (net.isIP(address) !== 0 && rest.length === 0) {
      const bits = prefix === undefined ? undefined : Number(prefix)
      if (bits === undefined) return this.#allowed.addAddress(address, type)
      if (/^\d{1,3}$/.test(prefix!) && bits <= (type === 'ipv6' ? 128 : 32)) return this.#allowed.addSubnet(address, bits, type)
    } else if (
      prefix === undefined &&
      address !== '' &&
      URL.canParse(`http://${address}`) &&
      hostOf(`http://${address}/`) === address.toLowerCase()
    ) {
      this.#allowedHosts.add(address.toLowerCase())
      return
    }
    throw new AllowListError(`${ALLOW_WEBHOOK_TO_FLAG} "${entry}" is not a CIDR range (10.0.0.0/8), an address or a host name`)
  }
}

/** A URL's host as it is connected to: lower case, an IPv6 address without its brackets. */
const hostOf = (url: string): string => bare(new URL(url).hostname)
const bare = (host: string): string => host.replace(/^\[(.*)\]$/, '$1').toLowerCase()
/** One text per address (an IPv4-mapped one as its IPv4 address), or undefined for what is not one. */
function canonicalAddress(address: string): string | undefined {
  try {
    return ipaddr.process(address).toString()
  } catch {
    return undefined
  }
}
