// The shared sandbox's webhook egress rule on its own: which addresses and URLs it refuses (every
// range outside global unicast, in every form the URL parser accepts, and the host's own
// addresses), and what --allow-webhook-to opens.
import os from 'node:os'
import { describe, expect, it } from 'vitest'
import { addressForms, PUBLIC_ADDRESSES, REFUSED_RANGES, refusedWebhookUrls } from '../../harness/address-forms.js'
import { AllowListError, WebhookEgress } from '../../sandbox/webhooks/webhook-egress.js'

describe('WebhookEgress', () => {
  const shared = (allow: string[] = []) => new WebhookEgress({ shared: true, allow })

  it('refuses internal addresses in every form and lets public ones through', () => {
    const egress = shared()
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd12::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      '224.0.0.1',
      '64:ff9b::7f00:1',
      '64:ff9b::a00:1',
      '2002:7f00:1::1',
      '2002:c0a8:1::1',
    ]) {
      expect(egress.addressRefusal(address, 'h'), address).toContain('--allow-webhook-to')
    }
    for (const address of ['8.8.8.8', '172.32.0.1', '192.169.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8']) {
      expect(egress.addressRefusal(address, 'h'), address).toBeUndefined()
    }
  })

  it('refuses every reserved range issue 29 names, at creation in every form the URL parser accepts', () => {
    const egress = shared()
    const urls = refusedWebhookUrls()
    expect(urls.length).toBeGreaterThan(700)
    // The forms are ones the parser takes for that very host: nothing here tests a typo.
    expect(urls.filter(({ url, host }) => new URL(url).hostname !== host)).toEqual([])
    const accepted = urls.filter(({ url }) => egress.urlRefusal(url) === undefined).map(({ url, range }) => `${url} (${range.cidr})`)
    expect(accepted).toEqual([])
    expect(egress.urlRefusal('http://0300.0.2.1/')).toBe(
      '192.0.2.1 is an internal address (ipaddr.js range reserved): a shared sandbox sends webhooks to global unicast addresses only (allow more with --allow-webhook-to, a CIDR range or a host)',
    )
  })

  it('refuses every reserved range at send time, on the address connected to (as a socket or DNS gives it)', () => {
    const egress = shared()
    const addresses = REFUSED_RANGES.flatMap(({ cidr, samples }) =>
      samples.flatMap((address) => (address.includes(':') ? [address] : [address, `::ffff:${address}`]).map((a) => ({ a, cidr }))),
    )
    expect(addresses.filter(({ a }) => egress.addressRefusal(a, 'hooks.example.com') === undefined)).toEqual([])
    expect(egress.addressRefusal('fec0::1', 'hooks.example.com')).toMatch(
      /^hooks\.example\.com \(fec0::1\) is an internal address \(ipaddr\.js range deprecatedSiteLocal\)/,
    )
  })

  it('lets public addresses through in every form', () => {
    const egress = shared()
    for (const address of PUBLIC_ADDRESSES) {
      expect(egress.addressRefusal(address, 'h'), address).toBeUndefined()
      for (const { form } of addressForms(address)) expect(egress.urlRefusal(`https://${form}/hook`), form).toBeUndefined()
    }
  })

  it("refuses the host's own interface addresses, public ones included", () => {
    const egress = new WebhookEgress({ shared: true, ownAddresses: () => ['8.8.4.4', '2001:4860:4860::8844'] })
    for (const address of ['8.8.4.4', '::ffff:8.8.4.4', '2001:4860:4860::8844'])
      expect(egress.addressRefusal(address, 'h'), address).toMatch(/this host's own address: .*--allow-webhook-to/)
    expect(egress.urlRefusal('http://0x8080404/')).toMatch(/^8\.8\.4\.4 is this host's own address/)
    expect(egress.addressRefusal('8.8.8.8', 'h')).toBeUndefined()
    // By default, the interfaces this machine has now.
    const real = shared()
    for (const entry of Object.values(os.networkInterfaces()).flat())
      expect(real.addressRefusal(entry!.address, 'h'), entry!.address).toBeDefined()
  })

  it('checks URLs by their literal address or loopback name, leaving other names to send time', () => {
    const egress = shared()
    for (const url of [
      'http://127.0.0.1/',
      'http://LOCALHOST:3000/',
      'http://a.b.localhost/',
      'http://localhost./',
      'http://x.localhost./',
      'http://[::1]/',
      'https://[fe80::1]/',
    ]) {
      expect(egress.urlRefusal(url), url).toBeDefined()
    }
    for (const url of ['https://hooks.example.com/x', 'http://8.8.8.8/', 'http://localhost.example.com/'])
      expect(egress.urlRefusal(url), url).toBeUndefined()
  })

  it('opens ranges, addresses and hosts named by --allow-webhook-to', () => {
    const egress = shared(['10.1.0.0/16', '192.168.5.5', 'fd00::/8', 'Hooks.Internal', 'localhost', '192.0.2.0/24', '64:ff9b:1::/48'])
    expect(egress.urlRefusal('http://192.0.2.7/')).toBeUndefined()
    expect(egress.urlRefusal('http://0xc0000207/')).toBeUndefined()
    expect(egress.addressRefusal('::ffff:192.0.2.7', 'h')).toBeUndefined()
    expect(egress.addressRefusal('64:ff9b:1::7f00:1', 'h')).toBeUndefined()
    expect(egress.addressRefusal('192.0.0.1', 'h')).toBeDefined()
    expect(egress.addressRefusal('10.1.2.3', 'h')).toBeUndefined()
    expect(egress.addressRefusal('10.2.0.1', 'h')).toBeDefined()
    expect(egress.addressRefusal('192.168.5.5', 'h')).toBeUndefined()
    expect(egress.addressRefusal('192.168.5.6', 'h')).toBeDefined()
    expect(egress.addressRefusal('fd00::1', 'h')).toBeUndefined()
    expect(egress.addressRefusal('127.0.0.1', 'hooks.internal')).toBeUndefined()
    expect(egress.urlRefusal('http://localhost:3000/')).toBeUndefined()
  })

  it('refuses nothing on a local sandbox', () => {
    const egress = new WebhookEgress({ allow: [] })
    expect(egress.urlRefusal('http://127.0.0.1/')).toBeUndefined()
    expect(egress.addressRefusal('10.0.0.1', 'h')).toBeUndefined()
  })

  it('refuses malformed allow entries', () => {
    for (const entry of ['10.0.0.0/33', '::/129', '10.0.0.0/', '10.0.0.0/x', 'a b', 'host:80', 'http://host', '', '10.0.0.0/8/8']) {
      expect(() => shared([entry]), entry).toThrow(AllowListError)
    }
  })
})
