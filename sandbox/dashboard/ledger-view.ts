// The Ledger explorer: accounts with balances (role filter), transactions with their operations,
// memo, fee and result (account filter, paged by position as `paybox ledger transactions` is),
// one transaction with links to its Horizon JSON, and the escrow and bridge orders with their
// states. An admin session sees the whole ledger; a merchant session what ledger-visibility.ts
// lets a merchant see, and its own orders. Every list updates live as ledgers close.
import { Router, type Request } from 'express'
import { z } from 'zod'
import { ledgerAccountsQuery, ledgerTransactionsQuery } from '../../src/api/contract/sandbox-admin.js'
import { queryInteger } from '../../src/api/validation.js'
import { listBridgeOrders } from '../cross-chain/quote-service.js'
import { listEscrowOrders } from '../escrow/escrow-service.js'
import { pageMeta } from '../http/pagination.js'
import { visibleAccounts, visibleTransaction, visibleTransactions, type LedgerViewer } from '../ledger-views/ledger-visibility.js'
import { pageRequest } from '../validation/common.js'
import { dashboardHref, type DashboardKit } from './dashboard-kit.js'
import type { DashboardView } from './dashboard-view.js'
import { renderAccounts, renderOrders, renderTransaction, renderTransactions } from './ledger-pages.js'

/** How many transactions a page shows unless the URL says otherwise. */
const TRANSACTIONS_PER_PAGE = 20
const ORDERS_PER_PAGE = 20

const ordersQuery = z.strictObject({
  escrowPage: queryInteger(1, 1_000_000).optional(),
  bridgePage: queryInteger(1, 1_000_000).optional(),
})

/** The URL's query: empty fields (an unset filter in a GET form) are no filter. */
function queryOf(req: Request): Record<string, string> {
  return Object.fromEntries(
    Object.entries(req.query as Record<string, unknown>).flatMap(([name, value]) =>
      typeof value === 'string' && value !== '' ? [[name, value]] : typeof value === 'string' ? [] : [[name, String(value)]],
    ),
  )
}

function ledgerRoutes(kit: DashboardKit): Router {
  const router = Router()
  const { ctx } = kit
  // An admin sees the whole ledger, whichever merchant the selector shows; a merchant only its own.
  const viewerOf = (req: Request): LedgerViewer => {
    const session = kit.sessionOf(req)
    return session.isAdmin ? undefined : kit.merchantOf(req)
  }

  router.get(
    '/ledger',
    kit.handle(async (req, res) => {
      const raw = queryOf(req)
      const { role } = ledgerAccountsQuery.parse(raw)
      const viewer = viewerOf(req)
      const accounts = await visibleAccounts(ctx, viewer, role)
      await kit.page(req, res, {
        title: 'Ledger accounts',
        current: 'ledger',
        body: renderAccounts({ accounts, role, merchantView: viewer !== undefined }),
      })
    }),
  )

  router.get(
    '/ledger/transactions',
    kit.handle(async (req, res) => {
      const raw = queryOf(req)
      const query = ledgerTransactionsQuery.parse(raw)
      const order = query.order ?? 'desc'
      const limit = query.limit ?? TRANSACTIONS_PER_PAGE
      const viewer = viewerOf(req)
      const page = await visibleTransactions(ctx, viewer, { account: query.account, after: query.after, order, limit })
      const next =
        page.nextAfter === undefined
          ? undefined
          : dashboardHref('/ledger/transactions', { account: query.account, order, limit: raw.limit, after: page.nextAfter })
      await kit.page(req, res, {
        title: 'Ledger transactions',
        current: 'ledger',
        body: renderTransactions({
          items: page.items,
          viewer,
          filters: { account: raw.account ?? '', order, limit: raw.limit ?? '' },
          paged: query.after !== undefined,
          first: dashboardHref('/ledger/transactions', { account: query.account, order, limit: raw.limit }),
          next,
        }),
      })
    }),
  )

  router.get(
    '/ledger/transactions/:hash',
    kit.handle(async (req, res) => {
      const viewer = viewerOf(req)
      // Another merchant's transaction is as unknown as a made-up hash: 404.
      const item = await visibleTransaction(ctx, viewer, String(req.params.hash))
      const ledger = await ctx.ledger.getLedger(ctx.db, item.tx.ledgerSequence)
      await kit.page(req, res, {
        title: `Transaction ${item.tx.hash.slice(0, 12)}…`,
        current: 'ledger',
        body: renderTransaction({ item, viewer, closedAt: ledger?.closedAt ?? null }),
      })
    }),
  )

  router.get(
    '/ledger/orders',
    kit.handle(async (req, res) => {
      const raw = queryOf(req)
      const query = ordersQuery.parse(raw)
      const viewer = viewerOf(req)
      const escrowPage = pageRequest({ page: query.escrowPage, limit: ORDERS_PER_PAGE })
      const bridgePage = pageRequest({ page: query.bridgePage, limit: ORDERS_PER_PAGE })
      const [escrow, bridge] = await Promise.all([
        listEscrowOrders(ctx.db, viewer?.id, escrowPage),
        listBridgeOrders(ctx.db, viewer?.id, bridgePage, ctx.clock.now()),
      ])
      await kit.page(req, res, {
        title: 'Escrow and bridge orders',
        current: 'ledger',
        body: renderOrders({
          escrow: escrow.rows,
          escrowMeta: pageMeta(escrowPage, escrow.total, escrow.rows.length),
          bridge: bridge.orders,
          bridgeMeta: pageMeta(bridgePage, bridge.total, bridge.orders.length),
          query: raw,
          viewer,
          now: ctx.clock.now(),
        }),
      })
    }),
  )
  return router
}

export const ledgerView: DashboardView = { id: 'ledger', title: 'Ledger', path: '/ledger', routes: ledgerRoutes }
