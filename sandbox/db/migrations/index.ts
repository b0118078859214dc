// Static migration lists, so the built package needs no file globbing. Each backend has its own
// list: PostgreSQL's starts at a baseline equal to SQLite's schema of 2026-11-24T13-00. A new
// migration is appended to both (one module; it may branch on the adapter where SQL differs),
// then `npm run db:baseline` writes the schema a new SQLite database gets in one step.
import { sql, type Migration, type MigrationProvider } from 'kysely'
import * as initial from './2026-11-21T13-00-initial.js'
import * as ledger from './2026-11-21T14-00-ledger.js'
import * as paymentReceipts from './2026-11-21T15-00-payment-receipts.js'
import * as settlementRefunds from './2026-11-21T16-00-settlement-refunds.js'
import * as webhooks from './2026-11-21T17-00-webhooks.js'
import * as invoices from './2026-11-21T18-00-invoices.js'
import * as crossChainQuotes from './2026-11-21T19-00-cross-chain-quotes.js'
import * as paymentCounts from './2026-11-21T20-30-payment-counts.js'
import * as paymentDayCounts from './2026-11-21T21-00-payment-day-counts.js'
import * as paymentPartialIndexes from './2026-11-21T22-00-payment-partial-indexes.js'
import * as escrowDueIndex from './2026-11-21T23-00-escrow-due-index.js'
import * as paymentVersions from './2026-11-22T00-00-payment-versions.js'
import * as failedTransactions from './2026-11-24T12-00-failed-transactions.js'
import * as bridgeOrders from './2026-11-24T12-30-bridge-orders.js'
import * as transactionMeta from './2026-11-24T13-00-transaction-meta.js'
import * as resendTimes from './2026-11-24T15-00-resend-times.js'
import * as seenSignatures from './2026-11-27T10-00-seen-signatures.js'
import * as egressPolicy from './2026-11-27T10-30-egress-policy.js'
import * as invoiceNumbersInByteOrder from './2026-11-27T11-00-invoice-numbers-in-byte-order.js'
import * as dashboardSessions from './2026-11-27T11-30-dashboard-sessions.js'
import * as eventSubjects from './2026-11-27T14-00-event-subjects.js'
import * as tenantClocks from './2026-11-27T14-30-tenant-clocks.js'
import * as ledgerBalancesChecked from './postgres/2026-11-27T16-10-ledger-balances-checked.js'
import * as webhookClaims from './2026-11-27T16-30-webhook-claims.js'
import * as postgresBaseline from './postgres/2026-11-24T14-00-postgres-baseline.js'
import * as paymentCountDeltas from './postgres/2026-11-27T16-00-payment-count-deltas.js'
import * as eventPositions from './postgres/2026-11-27T16-20-event-positions.js'
import * as unclaimedDeliveries from './postgres/2026-11-27T20-00-unclaimed-deliveries.js'
import * as paymentCreateCosts from './postgres/2026-11-27T23-00-payment-create-costs.js'
import * as liveClaims from './postgres/2026-11-28T05-00-live-claims.js'

const migrations: Record<string, Migration> = {
  '2026-11-21T13-00-initial': initial,
  '2026-11-21T14-00-ledger': ledger,
  '2026-11-21T15-00-payment-receipts': paymentReceipts,
  '2026-11-21T16-00-settlement-refunds': settlementRefunds,
  '2026-11-21T17-00-webhooks': webhooks,
  '2026-11-21T18-00-invoices': invoices,
  '2026-11-21T19-00-cross-chain-quotes': crossChainQuotes,
  '2026-11-21T20-30-payment-counts': paymentCounts,
  '2026-11-21T21-00-payment-day-counts': paymentDayCounts,
  '2026-11-21T22-00-payment-partial-indexes': paymentPartialIndexes,
  '2026-11-21T23-00-escrow-due-index': escrowDueIndex,
  '2026-11-22T00-00-payment-versions': paymentVersions,
  '2026-11-24T12-00-failed-transactions': failedTransactions,
  '2026-11-24T12-30-bridge-orders': bridgeOrders,
  '2026-11-24T13-00-transaction-meta': transactionMeta,
  '2026-11-24T15-00-resend-times': resendTimes,
  '2026-11-27T10-00-seen-signatures': seenSignatures,
  '2026-11-27T10-30-egress-policy': egressPolicy,
  '2026-11-27T11-00-invoice-numbers-in-byte-order': invoiceNumbersInByteOrder,
  '2026-11-27T11-30-dashboard-sessions': dashboardSessions,
  '2026-11-27T14-00-event-subjects': eventSubjects,
  '2026-11-27T14-30-tenant-clocks': tenantClocks,
  '2026-11-27T16-30-webhook-claims': webhookClaims,
}

const postgresMigrations: Record<string, Migration> = {
  '2026-11-24T14-00-postgres-baseline': postgresBaseline,
  '2026-11-24T15-00-resend-times': resendTimes,
  '2026-11-27T10-00-seen-signatures': seenSignatures,
  '2026-11-27T10-30-egress-policy': egressPolicy,
  '2026-11-27T11-00-invoice-numbers-in-byte-order': invoiceNumbersInByteOrder,
  '2026-11-27T11-30-dashboard-sessions': dashboardSessions,
  '2026-11-27T14-00-event-subjects': eventSubjects,
  '2026-11-27T14-30-tenant-clocks': tenantClocks,
  '2026-11-27T16-00-payment-count-deltas': paymentCountDeltas,
  '2026-11-27T16-10-ledger-balances-checked': ledgerBalancesChecked,
  '2026-11-27T16-20-event-positions': eventPositions,
  '2026-11-27T16-30-webhook-claims': webhookClaims,
  '2026-11-27T20-00-unclaimed-deliveries': unclaimedDeliveries,
  '2026-11-27T23-00-payment-create-costs': paymentCreateCosts,
  '2026-11-28T05-00-live-claims': liveClaims,
}

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
}

// kysely runs the pending migrations in one transaction; a migration of a large shared database
// may take longer than the statement timeout requests get, so each lifts it for that transaction.
const withoutStatementTimeout = (migration: Migration): Migration => ({
  up: async (db) => {
    await sql`set local statement_timeout = 0`.execute(db)
    await migration.up(db)
  },
  down: migration.down,
})
const postgresMigrationsUntimed = Object.fromEntries(
  Object.entries(postgresMigrations).map(([name, migration]) => [name, withoutStatementTimeout(migration)]),
)

export const postgresMigrationProvider: MigrationProvider = {
  getMigrations: async () => postgresMigrationsUntimed,
}
