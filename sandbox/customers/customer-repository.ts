// Customer rows: the only code that reads or writes the customers table.
import type { Kysely } from 'kysely'
import type { CustomerRow, Database } from '../db/schema.js'

export async function insertCustomer(db: Kysely<Database>, customer: CustomerRow): Promise<void> {
  await db.insertInto('customers').values(customer).execute()
}

export function findCustomerForMerchant(db: Kysely<Database>, merchantId: string, id: string): Promise<CustomerRow | undefined> {
  return db.selectFrom('customers').selectAll().where('id', '=', id).where('merchant_id', '=', merchantId).executeTakeFirst()
}

export function findCustomersByIds(db: Kysely<Database>, ids: string[]): Promise<CustomerRow[]> {
  if (ids.length === 0) return Promise.resolve([])
  return db
    .selectFrom('customers')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute()
}
