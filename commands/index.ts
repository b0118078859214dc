// Every command of the CLI, by id (oclif's explicit strategy: no directory scan at start-up).
// Command modules load heavy dependencies lazily inside run(), so importing them all is cheap.
import Balances from './balances.js'
import ConfigGet from './config/get.js'
import ConfigList from './config/list.js'
import ConfigSet from './config/set.js'
import Currencies from './currencies.js'
import EscrowFail from './escrow/fail.js'
import EscrowFund from './escrow/fund.js'
import EscrowRelease from './escrow/release.js'
import EscrowStatus from './escrow/status.js'
import FeeTierShow from './fee-tier.js'
import InvoicesCancel from './invoices/cancel.js'
import InvoicesCreate from './invoices/create.js'
import InvoicesGet from './invoices/get.js'
import InvoicesList from './invoices/list.js'
import InvoicesSettings from './invoices/settings.js'
import LedgerAccounts from './ledger/accounts.js'
import LedgerTransactions from './ledger/transactions.js'
import LedgerTx from './ledger/tx.js'
import LedgerWalletCreate from './ledger/wallet/create.js'
import Listen from './listen.js'
import Login from './login.js'
import MerchantsCreate from './merchants/create.js'
import MerchantsRotateSecret from './merchants/rotate-secret.js'
import OpenApi from './openapi.js'
import PaymentsAcceptUnderpayment from './payments/accept-underpayment.js'
import PaymentsCreate from './payments/create.js'
import PaymentsDeposit from './payments/deposit.js'
import PaymentsExpire from './payments/expire.js'
import PaymentsFail from './payments/fail.js'
import PaymentsGet from './payments/get.js'
import PaymentsList from './payments/list.js'
import PaymentsPay from './payments/pay.js'
import PaymentsQuote from './payments/quote.js'
import PaymentsRefund from './payments/refund.js'
import RefundsGet from './refunds/get.js'
import RefundsList from './refunds/list.js'
import SandboxClockAdvance from './sandbox/clock/advance.js'
import SandboxClockFreeze from './sandbox/clock/freeze.js'
import SandboxClockShow from './sandbox/clock/index.js'
import SandboxClockUnfreeze from './sandbox/clock/unfreeze.js'
import SandboxKeys from './sandbox/keys.js'
import SandboxLogs from './sandbox/logs.js'
import SandboxReset from './sandbox/reset.js'
import SandboxSnapshotList from './sandbox/snapshot/list.js'
import SandboxSnapshotRestore from './sandbox/snapshot/restore.js'
import SandboxSnapshotSave from './sandbox/snapshot/save.js'
import SandboxStart from './sandbox/start.js'
import SandboxStatus from './sandbox/status.js'
import SandboxStop from './sandbox/stop.js'
import SandboxWait from './sandbox/wait.js'
import ScenarioRun from './scenario/run.js'
import Trigger from './trigger.js'
import WebhooksGet from './webhooks/get.js'
import WebhooksList from './webhooks/list.js'
import WebhooksPause from './webhooks/pause.js'
import WebhooksResend from './webhooks/resend.js'
import WebhooksResume from './webhooks/resume.js'
import WebhooksTail from './webhooks/tail.js'
import WebhooksTestReceiver from './webhooks/test-receiver.js'
import WebhooksVerify from './webhooks/verify.js'

export const COMMANDS = {
  balances: Balances,
  'config:get': ConfigGet,
  'config:list': ConfigList,
  'config:set': ConfigSet,
  currencies: Currencies,
  'escrow:fail': EscrowFail,
  'escrow:fund': EscrowFund,
  'escrow:release': EscrowRelease,
  'escrow:status': EscrowStatus,
  'fee-tier': FeeTierShow,
  'invoices:cancel': InvoicesCancel,
  'invoices:create': InvoicesCreate,
  'invoices:get': InvoicesGet,
  'invoices:list': InvoicesList,
  'invoices:settings': InvoicesSettings,
  'ledger:accounts': LedgerAccounts,
  'ledger:transactions': LedgerTransactions,
  'ledger:tx': LedgerTx,
  'ledger:wallet:create': LedgerWalletCreate,
  listen: Listen,
  login: Login,
  'merchants:create': MerchantsCreate,
  'merchants:rotate-secret': MerchantsRotateSecret,
  openapi: OpenApi,
  'payments:accept-underpayment': PaymentsAcceptUnderpayment,
  'payments:create': PaymentsCreate,
  'payments:deposit': PaymentsDeposit,
  'payments:expire': PaymentsExpire,
  'payments:fail': PaymentsFail,
  'payments:get': PaymentsGet,
  'payments:list': PaymentsList,
  'payments:pay': PaymentsPay,
  'payments:quote': PaymentsQuote,
  'payments:refund': PaymentsRefund,
  'refunds:get': RefundsGet,
  'refunds:list': RefundsList,
  'sandbox:clock': SandboxClockShow,
  'sandbox:clock:advance': SandboxClockAdvance,
  'sandbox:clock:freeze': SandboxClockFreeze,
  'sandbox:clock:unfreeze': SandboxClockUnfreeze,
  'sandbox:keys': SandboxKeys,
  'sandbox:logs': SandboxLogs,
  'sandbox:reset': SandboxReset,
  'sandbox:snapshot:list': SandboxSnapshotList,
  'sandbox:snapshot:restore': SandboxSnapshotRestore,
  'sandbox:snapshot:save': SandboxSnapshotSave,
  'sandbox:start': SandboxStart,
  'sandbox:status': SandboxStatus,
  'sandbox:stop': SandboxStop,
  'sandbox:wait': SandboxWait,
  'scenario:run': ScenarioRun,
  trigger: Trigger,
  'webhooks:get': WebhooksGet,
  'webhooks:list': WebhooksList,
  'webhooks:pause': WebhooksPause,
  'webhooks:resend': WebhooksResend,
  'webhooks:resume': WebhooksResume,
  'webhooks:tail': WebhooksTail,
  'webhooks:test-receiver': WebhooksTestReceiver,
  'webhooks:verify': WebhooksVerify,
}
