// The JSON shape of an invoice's customer (spec 2.3).
import type { CustomerRow } from '../db/schema.js'

export function toCustomerResource(customer: CustomerRow): Record<string, unknown> {
  return {
    id: customer.id,
    customer_type: customer.customer_type,
    name: customer.name,
    company_name: customer.company_name,
    email: customer.email,
    vat_number: customer.vat_number,
    address: customer.address === null ? null : (JSON.parse(customer.address) as unknown),
  }
}
