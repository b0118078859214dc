// The address ranges a shared sandbox must never send webhooks to (issue 29), with sample addresses,
// and every textual form of an address the WHATWG URL parser accepts as the same host: decimal,
// hex and octal numbers, short IPv4 forms, percent-encoding, full-width digits, IPv6 with an
// embedded IPv4 tail. The egress tests and the hostile suite attack with each form.
import ipaddr from 'ipaddr.js'

export interface RefusedRange {
  /** The range, as a CIDR. */
  cidr: string
  /** Why it is not a public receiver (its ipaddr.js range name, or the rule that refuses it). */
  why: string
  /** Addresses in it (canonical text): its first and last by default. */
  samples: string[]
}

const range = (cidr: string, why: string, samples?: string[]): RefusedRange => {
  if (samples) return { cidr, why, samples }
  const [first, last] = ipaddr.IPv4.isValidCIDR(cidr)
    ? [ipaddr.IPv4.networkAddressFromCIDR(cidr), ipaddr.IPv4.broadcastAddressFromCIDR(cidr)]
    : [ipaddr.IPv6.networkAddressFromCIDR(cidr), ipaddr.IPv6.broadcastAddressFromCIDR(cidr)]
  return { cidr, why, samples: [...new Set([first.toString(), last.toString()])] }
}

/** Every range issue 29 names, and every range refused before it. */
export const REFUSED_RANGES: readonly RefusedRange[] = [
  range('0.0.0.0/8', 'unspecified'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'carrierGradeNat'),
  range('127.0.0.0/8', 'loopback', ['127.0.0.1', '127.255.255.254', '127.0.0.0']),
  range('169.254.0.0/16', 'linkLocal', ['169.254.169.254', '169.254.0.0', '169.254.255.255']),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'reserved'),
  range('192.0.2.0/24', 'reserved (TEST-NET-1)'),
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'reserved (benchmarking)'),
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved'),
  range('255.255.255.255/32', 'broadcast'),
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('::/96', 'IPv4-compatible (outside 2000::/3)', ['::7f00:1', '::a00:1', '::808:808']),
  range('::ffff:0:0/96', 'ipv4Mapped, judged by its IPv4 address', [
    '::ffff:7f00:1',
    '::ffff:a00:1',
    '::ffff:c000:202',
    '::ffff:a9fe:a9fe',
  ]),
  range('::ffff:0:0:0/96', 'rfc6145', ['::ffff:0:7f00:1', '::ffff:0:808:808']),
  range('64:ff9b::/96', 'rfc6052 (NAT64)', ['64:ff9b::7f00:1', '64:ff9b::808:808']),
  range('64:ff9b:1::/48', 'rfc6052 (local NAT64)'),
  range('2002::/16', '6to4', ['2002:7f00:1::1', '2002:808:808::1']),
  range('2001::/32', 'teredo'),
  range('2001:db8::/32', 'reserved (documentation)'),
  range('fc00::/7', 'uniqueLocal'),
  range('fe80::/10', 'linkLocal'),
  range('fec0::/10', 'deprecatedSiteLocal'),
  range('ff00::/8', 'multicast', ['ff00::', 'ff02::1', 'ff0e::1', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']),
]

/** Public addresses, in every form too: a shared sandbox sends to them. */
export const PUBLIC_ADDRESSES = ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '2606:4700::1111', '::ffff:808:808']

/** A way to write an address in a URL, and the host the URL parser makes of it. */
export interface AddressForm {
  form: string
  host: string
}

/** Every textual form of an IPv4 address the URL parser reads as it (its dotted form included), and as IPv4-mapped IPv6. */
export function ipv4Forms(address: string): AddressForm[] {
  const octets = ipaddr.IPv4.parse(address).octets
  const [a, b, c, d] = octets as [number, number, number, number]
  const whole = ((a << 24) | (b << 16) | (c << 8) | d) >>> 0
  const hex = (n: number) => `0x${n.toString(16)}`
  const octal = (n: number) => `0${n.toString(8)}`
  const fullWidth = (text: string) => text.replace(/[0-9]/g, (digit) => String.fromCharCode(0xff10 + Number(digit)))
  const mapped = `::ffff:${(((a << 8) | b) >>> 0).toString(16)}:${(((c << 8) | d) >>> 0).toString(16)}`
  const asIpv4 = [
    address,
    `${address}.`,
    String(whole),
    hex(whole),
    hex(whole).toUpperCase(),
    `0x${whole.toString(16).padStart(16, '0')}`,
    octal(whole),
    octets.map(hex).join('.'),
    octets.map(octal).join('.'),
    `${hex(a)}.${b}.${octal(c)}.${d}`,
    `${a}.${b}.${(c << 8) | d}`,
    `${a}.${hex(b)}.${hex((c << 8) | d)}`,
    `${a}.${(b << 16) | (c << 8) | d}`,
    `${octal(a)}.${octal((b << 16) | (c << 8) | d)}`,
    [...address].map((char) => `%${char.charCodeAt(0).toString(16)}`).join(''),
    fullWidth(address),
    address.replaceAll('.', '\u3002'),
  ]
  const asMapped = [
    `[::ffff:${address}]`,
    `[::FFFF:${address}]`,
    `[0:0:0:0:0:ffff:${address}]`,
    `[${mapped}]`,
    `[0000:0000:0000:0000:0000:ffff:${mapped.slice('::ffff:'.length)}]`,
  ]
  return [...asIpv4.map((form) => ({ form, host: address })), ...asMapped.map((form) => ({ form, host: `[${mapped}]` }))]
}

/** Every textual form of an IPv6 address the URL parser reads as it, in brackets. */
export function ipv6Forms(address: string): AddressForm[] {
  const parsed = ipaddr.IPv6.parse(address)
  const parts = parsed.parts
  const tail = `${parts[6]! >> 8}.${parts[6]! & 0xff}.${parts[7]! >> 8}.${parts[7]! & 0xff}`
  const head = parts.slice(0, 6).map((part) => part.toString(16))
  const forms = [
    `[${parsed.toString()}]`,
    `[${parsed.toNormalizedString()}]`,
    `[${parts.map((part) => part.toString(16).padStart(4, '0')).join(':')}]`,
    `[${parsed.toString().toUpperCase()}]`,
    `[${head.join(':')}:${tail}]`,
    `[${parts
      .map((part) => part.toString(16).padStart(4, '0'))
      .join(':')
      .toUpperCase()}]`,
  ]
  return forms.map((form) => ({ form, host: `[${parsed.toString()}]` }))
}

/** Every form of an address: an IPv4 one's, or an IPv6 one's. */
export const addressForms = (address: string): AddressForm[] => (address.includes(':') ? ipv6Forms(address) : ipv4Forms(address))

/** `http://<form>/hook` for every form of every sample of every refused range, with the host the parser makes of it. */
export function refusedWebhookUrls(): Array<{ url: string; range: RefusedRange; host: string }> {
  return REFUSED_RANGES.flatMap((refused) =>
    refused.samples.flatMap((sample) =>
      addressForms(sample).map(({ form, host }) => ({ url: `http://${form}/hook`, range: refused, host })),
    ),
  )
}
