// SSRF through webhookUrl (issue 29): cases that hold only where a shared sandbox refuses internal targets.
import { refusedWebhookUrls } from '../address-forms.js'
import { error, toJson, type HostileCase } from './hostile-case.js'
import { validBody } from './payment-body.js'
import { Rng } from './rng.js'

/**
 * SSRF through webhookUrl (issue 29), for a shared sandbox: every form the URL parser accepts of an
 * address in each reserved range (harness/address-forms.ts), each a 400 naming the field and
 * --allow-webhook-to. Apart from generateHostileCases: they hold only where internal targets are refused.
 */
export function generateEgressCases(seed: number): HostileCase[] {
  const rng = new Rng(seed)
  return refusedWebhookUrls().map(({ url, range }, index) => {
    const body = { ...validBody(rng), webhookUrl: url.replace('/hook', `:${rng.pick([80, 443, 8080, 9])}/hook/${rng.hex(4)}`) }
    return {
      name: `#${index} POST /payments egress: webhookUrl in ${range.cidr} as ${url}`,
      endpoint: 'POST /payments',
      family: 'egress',
      field: 'webhookUrl',
      method: 'POST',
      path: '/payments',
      body: toJson(body),
      headers: [],
      signAs: 'direct',
      expect: error(400),
    }
  })
}
