// PostgreSQL only: ledger balances become numbers the database checks, so that an overdraft the
// code missed is refused by the database itself once replicas write without one shared lock. The
// issuer's USDC balance is the negative of all USDC issued (it mints by paying): the one account
// below zero, and never above it. SQLite keeps decimal text (its one writer checks them in order).
// Migrations never import app code: the schema here is frozen as of this migration.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ledger_accounts
    alter column usdc_balance drop default,
    alter column usdc_balance type numeric using usdc_balance::numeric,
    alter column usdc_balance set default 0,
    alter column xlm_balance drop default,
    alter column xlm_balance type numeric using xlm_balance::numeric,
    alter column xlm_balance set default 0,
    add constraint ledger_accounts_usdc_balance_sign
      check (case when role = 'issuer' then usdc_balance <= 0 else usdc_balance >= 0 end),
    add constraint ledger_accounts_xlm_balance_not_negative check (xlm_balance >= 0)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ledger_accounts
    drop constraint ledger_accounts_xlm_balance_not_negative,
    drop constraint ledger_accounts_usdc_balance_sign,
    alter column usdc_balance drop default,
    alter column usdc_balance type text using usdc_balance::text,
    alter column usdc_balance set default '0',
    alter column xlm_balance drop default,
    alter column xlm_balance type text using xlm_balance::text,
    alter column xlm_balance set default '0'`.execute(db)
}
