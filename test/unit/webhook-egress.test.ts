// The shared sandbox's webhook egress rule on its own: which addresses and URLs it refuses, and
// what --allow-webhook-to opens.
import { describe, expect, it } from 'vitest'
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

  it('checks URLs by their literal address or loopback name, leaving other names to send time', () => {
    const egress = shared()
    for (const url of ['http://127.0.0.1/', 'http://LOCALHOST:3000/', 'http://a.b.localhost/', 'http://[::1]/', 'https://[fe80::1]/']) {
      expect(egress.urlRefusal(url), url).toBeDefined()
    }
    for (const url of ['https://hooks.example.com/x', 'http://8.8.8.8/', 'http://localhost.example.com/'])
      expect(egress.urlRefusal(url), url).toBeUndefined()
  })

  it('opens ranges, addresses and hosts named by --allow-webhook-to', () => {
    const egress = shared(['10.1.0.0/16', '192.168.5.5', 'fd00::/8', 'Hooks.Internal', 'localhost'])
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
