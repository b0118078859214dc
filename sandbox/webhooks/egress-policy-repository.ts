// The sandbox's stored webhook egress policy: the one row of egress_policy.
import type { Kysely } from 'kysely'
import type { Database, EgressPolicyTable } from '../db/schema.js'

export async function findEgressPolicy(db: Kysely<Database>): Promise<EgressPolicyTable | undefined> {
  return db.selectFrom('egress_policy').selectAll().where('id', '=', 1).executeTakeFirst()
}

export async function saveEgressPolicy(db: Kysely<Database>, row: Omit<EgressPolicyTable, 'id'>): Promise<void> {
  await db
    .insertInto('egress_policy')
    .values({ id: 1, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute()
}
