// Where a shared sandbox may send webhooks: a merchant key must not turn deliveries (and the answers
// logged) into requests to the host's own network, so loopback, private and link-local targets are
// refused unless --allow-webhook-to names them.
import dns from 'node:dns'
import net from 'node:net'
import type { Socket } from 'node:net'
import type { buildConnector as BuildConnector } from 'undici'

export const ALLOW_WEBHOOK_TO_FLAG = '--allow-webhook-to'

/** Addresses a shared sandbox does not send to: this host, its networks, link-local (cloud metadata). */
const INTERNAL_RANGES: Array<[string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['224.0.0.0', 3, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  // IPv4 carried inside IPv6 (NAT64, 6to4) would otherwise reach the ranges above.
  ['64:ff9b::', 96, 'ipv6'],
  ['2002::', 16, 'ipv6'],
]

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
}

export class WebhookEgress {
  readonly shared: boolean
  readonly #internal = new net.BlockList()
  readonly #allowed = new net.BlockList()
  readonly #allowedHosts = new Set<string>()

  constructor(options: WebhookEgressOptions = {}) {
    this.shared = options.shared ?? false
    for (const [address, prefix, type] of INTERNAL_RANGES) this.#internal.addSubnet(address, prefix, type)
    for (const entry of options.allow ?? []) this.#allow(entry)
  }

  /** Why a webhook URL is refused as given (an internal address or a localhost name), or undefined. */
  urlRefusal(url: string): string | undefined {
    if (!this.shared || !URL.canParse(url)) return undefined
    const host = hostOf(url)
    if (this.#allowedHosts.has(host)) return undefined
    if (host === 'localhost' || host.endsWith('.localhost')) return this.#refusal(host, 'a loopback name')
    return net.isIP(host) === 0 ? undefined : this.addressRefusal(host, host)
  }

  /** Why connecting to `address` (resolved from `host`) is refused, or undefined. */
  addressRefusal(address: string, host: string): string | undefined {
    if (!this.shared || this.#allowedHosts.has(host)) return undefined
    const type = net.isIPv6(address) ? 'ipv6' : 'ipv4'
    if (!net.isIP(address)) return this.#refusal(host, 'an unknown address')
    if (this.#allowed.check(address, type) || !this.#internal.check(address, type)) return undefined
    return this.#refusal(host === address ? address : `${host} (${address})`, 'an internal address')
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
    return `${target} is ${what}: a shared sandbox sends webhooks to public addresses only (allow more with ${ALLOW_WEBHOOK_TO_FLAG}, a CIDR range or a host)`
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
