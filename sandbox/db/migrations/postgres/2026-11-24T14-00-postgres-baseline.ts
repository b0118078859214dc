// PostgreSQL's first migration: the schema the SQLite migrations had built by 2026-11-24T13-00,
// in one step, since no PostgreSQL sandbox predates it. Types follow SQLite's values: integers
// are bigint (epoch ms, stroops), text stays text, JSON is text. What SQLite did with triggers
// (payment counts, versions) is PL/pgSQL here; `rowid` is an identity column where order by
// insertion is read. Migrations never import app code: the schema here is frozen as of this one.
import { sql, type Kysely } from 'kysely'

const TABLES = sql`
create table sandbox_state (key text primary key, value text not null);

create table merchants (
  id text primary key,
  name text not null,
  api_key text not null unique,
  api_secret text not null,
  settlement_mode text not null check (settlement_mode in ('direct', 'escrow')),
  escrow_fee_bps bigint not null default 0,
  account_id text not null,
  created_at bigint not null,
  webhooks_paused bigint not null default 0
);

create table ledger_accounts (
  public_key text primary key,
  secret text,
  role text not null,
  label text not null,
  created_at bigint not null,
  sequence text not null default '0',
  usdc_balance text not null default '0',
  xlm_balance text not null default '0',
  usdc_trustline bigint not null default 1,
  usdc_limit text not null default '9223372036854775807',
  rowid bigint generated always as identity
);

create table payments (
  id text primary key,
  merchant_id text not null references merchants (id),
  status text not null,
  settlement_status text not null,
  amount_value bigint not null,
  amount_currency text not null,
  usdc_amount bigint not null,
  description text not null,
  merchant_name text not null,
  redirect_url text,
  cancel_url text,
  webhook_url text,
  locale text not null,
  metadata text,
  partner_id text,
  store_id text,
  memo text not null unique,
  destination text not null,
  auth_token text not null,
  short_code text not null unique,
  amount_paid bigint not null default 0,
  settlement_amount bigint not null default 0,
  settlement_fee bigint not null default 0,
  stellar_tx_id text,
  settlement_tx_id text,
  sender_account text,
  refunded bigint not null default 0,
  history text not null,
  escrow_status text,
  escrow_order_id text,
  escrow_contract_address text,
  escrow_fee_bps bigint,
  escrow_payee text,
  escrow_expires_at bigint,
  created_at bigint not null,
  updated_at bigint not null,
  expires_at bigint not null,
  usdc_received bigint not null default 0,
  settled_at bigint,
  usdc_refunded bigint not null default 0,
  settlement_will_fail bigint not null default 0,
  version bigint not null default 0
);
create index payments_by_merchant_created on payments (merchant_id, created_at, id);
create index payments_by_merchant_status_created on payments (merchant_id, status, created_at, id);
create index payments_by_merchant_store_created on payments (merchant_id, store_id, created_at, id);
create index payments_by_status_expiry on payments (status, expires_at);
create index payments_settling on payments (settlement_tx_id) where settlement_status = 'processing';
create index payments_by_merchant_settled on payments (merchant_id, settled_at) where settled_at is not null;
create index payments_escrow_unfunded on payments (escrow_expires_at) where escrow_status = 'created';

create table idempotency_keys (
  merchant_id text not null,
  key text not null,
  request_hash text not null,
  response_status bigint not null,
  response_body text not null,
  created_at bigint not null,
  constraint idempotency_keys_pk primary key (merchant_id, key)
);

create table ledger_ledgers (
  sequence bigint primary key,
  opened_at bigint not null,
  closed_at bigint,
  transaction_count bigint not null default 0,
  total_coins text not null default '0',
  fee_pool text not null default '0'
);
create unique index ledger_ledgers_one_open on ledger_ledgers ((closed_at is null)) where closed_at is null;

create table ledger_transactions (
  hash text primary key,
  position bigint not null unique,
  ledger_sequence bigint not null references ledger_ledgers (sequence),
  source_account text not null,
  source_sequence text not null,
  fee_charged bigint not null,
  memo_type text not null check (memo_type in ('none', 'text', 'id', 'hash', 'return')),
  memo text,
  envelope_xdr text not null,
  applied_at bigint not null,
  successful bigint not null default 1,
  operation_results text,
  result_meta_xdr text,
  fee_meta_xdr text
);
create index ledger_transactions_by_source on ledger_transactions (source_account, position);
create index ledger_transactions_by_ledger on ledger_transactions (ledger_sequence, position);
create index ledger_transactions_by_memo on ledger_transactions (memo) where memo is not null;

create table ledger_operations (
  tx_hash text not null references ledger_transactions (hash),
  op_index bigint not null,
  tx_position bigint not null,
  type text not null check (type in ('payment')),
  from_account text not null,
  to_account text not null,
  asset_code text not null check (asset_code in ('USDC', 'XLM')),
  amount text not null,
  constraint ledger_operations_pk primary key (tx_hash, op_index)
);
create index ledger_operations_by_from on ledger_operations (from_account, tx_position);
create index ledger_operations_by_to on ledger_operations (to_account, tx_position);

create table refunds (
  id text primary key,
  merchant_id text not null references merchants (id),
  payment_id text not null references payments (id),
  status text not null,
  usdc_amount bigint not null,
  description text not null,
  metadata text,
  settlement_tx_id text not null,
  created_at bigint not null
);
create index refunds_by_merchant_created on refunds (merchant_id, created_at, id);
create index refunds_by_payment on refunds (payment_id);

create table payment_events (
  sequence bigint generated by default as identity primary key,
  merchant_id text not null references merchants (id),
  payment_id text not null,
  event_type text not null,
  payload text not null,
  created_at bigint not null
);

create table webhook_deliveries (
  id text primary key,
  sequence bigint not null unique,
  merchant_id text not null references merchants (id),
  payment_id text not null,
  event_type text not null,
  url text not null,
  status text not null check (status in ('pending', 'success', 'failed', 'skipped')),
  request_payload text not null,
  response_body text,
  http_status bigint,
  error_message text,
  attempt_count bigint not null,
  duration_ms bigint,
  resend_of text,
  last_attempt_at bigint,
  created_at bigint not null,
  updated_at bigint not null
);
create index webhook_deliveries_by_merchant on webhook_deliveries (merchant_id, created_at, sequence);
create index webhook_deliveries_pending on webhook_deliveries (sequence) where status = 'pending';

create table customers (
  id text primary key,
  merchant_id text not null references merchants (id),
  customer_type text not null check (customer_type in ('business', 'individual')),
  name text,
  company_name text,
  email text not null,
  vat_number text,
  address text,
  created_at bigint not null
);

create table invoices (
  id text primary key,
  merchant_id text not null references merchants (id),
  invoice_number text not null,
  status text not null check (status in ('draft', 'sent', 'paid', 'overdue', 'voided')),
  currency text not null,
  line_items text not null,
  subtotal bigint not null,
  tax_percentage text not null,
  tax_total bigint not null,
  total bigint not null,
  issued_at bigint not null,
  due_at bigint,
  payment_id text not null references payments (id),
  notes text,
  customer_id text not null references customers (id),
  created_at bigint not null,
  updated_at bigint not null,
  constraint invoices_number_per_merchant unique (merchant_id, invoice_number)
);
create index invoices_by_merchant_created on invoices (merchant_id, created_at, id);
create index invoices_by_payment on invoices (payment_id);
create index invoices_by_status_due on invoices (status, due_at);

create table invoice_settings (
  merchant_id text primary key references merchants (id),
  invoice_prefix text not null,
  next_number bigint not null
);

create table cross_chain_quotes (
  id text primary key,
  payment_id text not null references payments (id),
  origin_chain text not null,
  origin_token text not null,
  deposit_address text not null,
  amount_in text not null,
  amount_out bigint not null,
  refund_address text not null,
  status text not null check (status in ('PENDING_DEPOSIT', 'INCOMPLETE_DEPOSIT', 'KNOWN_DEPOSIT_TX', 'PROCESSING', 'SUCCESS', 'REFUNDED', 'FAILED', 'EXPIRED')),
  deposit_tx_id text,
  expires_at bigint not null,
  created_at bigint not null,
  amount_deposited text not null default '0',
  amount_refunded text not null default '0',
  origin_transactions text not null default '[]',
  history text not null default '[]',
  superseded_by text
);
create index cross_chain_quotes_by_payment on cross_chain_quotes (payment_id);
create index cross_chain_quotes_live_by_deadline on cross_chain_quotes (expires_at)
  where status in ('PENDING_DEPOSIT', 'INCOMPLETE_DEPOSIT');
`

// List totals read these rows instead of counting a million index entries, as on SQLite.
// A day is floor(created_at / 86,400,000); payments without a store count under store_id ''.
const COUNTS = sql`
create table payment_counts (
  merchant_id text not null,
  status text not null,
  store_id text not null,
  count bigint not null,
  primary key (merchant_id, status, store_id)
);

create table payment_day_counts (
  merchant_id text not null,
  day bigint not null,
  status text not null,
  store_id text not null,
  count bigint not null,
  primary key (merchant_id, day, status, store_id)
);

create function payment_counts_follow() returns trigger language plpgsql as $$
begin
  if tg_op <> 'INSERT' then
    update payment_counts set count = count - 1
      where merchant_id = old.merchant_id and status = old.status and store_id = coalesce(old.store_id, '');
    update payment_day_counts set count = count - 1
      where merchant_id = old.merchant_id and day = floor(old.created_at / 86400000.0)::bigint
        and status = old.status and store_id = coalesce(old.store_id, '');
  end if;
  if tg_op <> 'DELETE' then
    insert into payment_counts as c (merchant_id, status, store_id, count)
      values (new.merchant_id, new.status, coalesce(new.store_id, ''), 1)
      on conflict (merchant_id, status, store_id) do update set count = c.count + 1;
    insert into payment_day_counts as c (merchant_id, day, status, store_id, count)
      values (new.merchant_id, floor(new.created_at / 86400000.0)::bigint, new.status, coalesce(new.store_id, ''), 1)
      on conflict (merchant_id, day, status, store_id) do update set count = c.count + 1;
  end if;
  return null;
end $$;

create trigger payment_counts_after_insert after insert on payments
  for each row execute function payment_counts_follow();
create trigger payment_counts_after_update after update of merchant_id, status, store_id, created_at on payments
  for each row when (old.merchant_id is distinct from new.merchant_id or old.status is distinct from new.status
    or old.store_id is distinct from new.store_id or old.created_at is distinct from new.created_at)
  execute function payment_counts_follow();
create trigger payment_counts_after_delete after delete on payments
  for each row execute function payment_counts_follow();

-- Every change of a payment that does not set its version itself moves it on (optimistic checks).
create function payments_next_version() returns trigger language plpgsql as $$
begin
  if new.version = old.version then
    new.version := old.version + 1;
  end if;
  return new;
end $$;

create trigger payments_version_before_update before update on payments
  for each row execute function payments_next_version();
`

export async function up(db: Kysely<unknown>): Promise<void> {
  await TABLES.execute(db)
  await COUNTS.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table payment_counts, payment_day_counts, cross_chain_quotes, invoice_settings, invoices, customers,
    webhook_deliveries, payment_events, refunds, ledger_operations, ledger_transactions, ledger_ledgers,
    idempotency_keys, payments, ledger_accounts, merchants, sandbox_state`.execute(db)
  await sql`drop function payment_counts_follow, payments_next_version`.execute(db)
}
