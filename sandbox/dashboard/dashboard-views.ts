// The dashboard's views, in navigation order: adding a view is one file under sandbox/dashboard/
// (its routes and templates, a DashboardView) and one line here.
import type { DashboardView } from './dashboard-view.js'
import { clockView } from './clock-view.js'
import { invoicesView } from './invoices-view.js'
import { ledgerView } from './ledger-view.js'
import { merchantsView } from './merchants-view.js'
import { overviewView } from './overview-view.js'
import { paymentsView } from './payments-view.js'
import { requestsView } from './requests-view.js'
import { webhooksView } from './webhooks-view.js'

export const DASHBOARD_VIEWS: readonly DashboardView[] = [
  overviewView,
  paymentsView,
  invoicesView,
  webhooksView,
  requestsView,
  ledgerView,
  clockView,
  merchantsView,
]
