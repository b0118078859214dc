// A seeded, deterministic generator of malformed requests for every endpoint the sandbox serves,
// and a sender that signs them like an outside client. Hand-written cases probe each endpoint's
// own rules, one module per family; route cases, derived from the app's router stack, reach
// every route, new ones included. The same seed always yields the same cases.
import { currencyCases, paymentHeaderCases } from './headers-and-auth.js'
import { horizonReadCases, horizonSubmitCases } from './horizon.js'
import { onTheWire, type CaseWriter, type HostileCase, type HostileCredentials } from './hostile-case.js'
import { invoiceCases, webhookLogCases } from './merchant-resources.js'
import { balanceCases, refundCases, simulationCases } from './payment-actions.js'
import { paymentEncodingCases } from './payment-encodings.js'
import { paymentFieldCases } from './payment-fields.js'
import { paymentIdCases, paymentListCases } from './payment-reads.js'
import { checkoutCases, healthCases, shortLinkCases } from './public-pages.js'
import { Rng } from './rng.js'
import { ledgerCases, merchantAdminCases, walletCases } from './sandbox-admin.js'

export {
  ENDPOINTS,
  EVERY_ROUTE,
  MAX_BODY_BYTES,
  onTheWire,
  PAYMENT_FIELDS,
  type Endpoint,
  type Expectation,
  type HostileCase,
  type HostileCredentials,
  type PaymentField,
  type Signer,
} from './hostile-case.js'
export { generateEgressCases } from './egress.js'
export { generateRouteCases } from './route-cases.js'
export { casesPerRoute, listRoutes, routeLabel, routeMatches, type RouteInfo } from './routes.js'
export { mulberry32, Rng } from './rng.js'
export { RESPONSE_TIMEOUT_MS, sendHostile, type SendCredentials } from './send.js'

/** The hand-written families, in the order they draw from the seed: reordering them changes every case. */
const FAMILIES: ReadonlyArray<(writer: CaseWriter) => void> = [
  paymentFieldCases,
  paymentEncodingCases,
  paymentHeaderCases,
  paymentListCases,
  paymentIdCases,
  currencyCases,
  merchantAdminCases,
  healthCases,
  shortLinkCases,
  checkoutCases,
  refundCases,
  simulationCases,
  balanceCases,
  ledgerCases,
  webhookLogCases,
  invoiceCases,
  horizonReadCases,
  horizonSubmitCases,
  walletCases,
]

/** Credentials are inputs so cases can carry near-miss variants; signing (it needs the time) is `sendHostile`'s. */
export function generateHostileCases(seed: number, creds: HostileCredentials): HostileCase[] {
  const cases: HostileCase[] = []
  const writer: CaseWriter = {
    rng: new Rng(seed),
    creds,
    add: (c) => {
      cases.push({ ...c, name: `#${cases.length} ${c.method} ${c.name}`, path: onTheWire(c.path), headers: c.headers ?? [] })
    },
  }
  for (const family of FAMILIES) family(writer)
  return cases
}
