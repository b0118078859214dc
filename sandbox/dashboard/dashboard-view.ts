// What a dashboard view is: a nav entry and a router of its pages, mounted at /dashboard behind
// sign-in. A view reads and acts through the sandbox's services and renders with the kit
// (dashboard-kit.ts); dashboard-views.ts lists the views, one line each.
import type { Router } from 'express'
import type { DashboardKit } from './dashboard-kit.js'

export interface DashboardView {
  /** Names the view in the navigation (and marks it current). */
  id: string
  /** The navigation label. */
  title: string
  /** Its entry page, under /dashboard: '/payments'. */
  path: string
  /** Only admin sessions see it (merchants, clock and state). */
  adminOnly?: boolean
  /** Its pages and forms, paths relative to /dashboard; every request reaching them is signed in. */
  routes(kit: DashboardKit): Router
}
