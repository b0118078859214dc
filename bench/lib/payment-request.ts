// The payment every write load of the bench creates.
import type { CreatePaymentRequest } from '../../src/client/types.js'

/** A realistic merchant request: metadata, URLs, a store; the answer is about 2 KB. */
export function paymentRequest(n: number): CreatePaymentRequest {
  return {
    amount: { value: 1000 + (n % 9000), currency: 'USD' },
    description: `Bench order #${n}: 2 × espresso beans 1 kg, 1 × grinder cleaning tablets`,
    redirectUrl: 'https://shop.example/orders/thanks?source=paybox',
    cancelUrl: 'https://shop.example/cart?canceled=1',
    metadata: { orderId: `bench-${n}`, customer: 'cus_8f3a2b1c', channel: 'web', campaign: 'autumn-sale' },
    storeId: `store-${n % 4}`,
    partnerId: 'partner-bench',
  }
}
