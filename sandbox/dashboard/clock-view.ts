// Clock and state (admin only): the business clock (now, frozen or running), freeze (now or at an
// ISO time), advance by a duration, unfreeze; snapshots saved, listed and restored, and a reset.
// Everything goes through the clock service and the state controls the API's /sandbox/clock and
// /sandbox/snapshots routes use, with their refusals. A restore or reset replaces the dashboard's
// sessions with the new state's; the admin who did it is written back in (session carry-over).
import { Router, type Request } from 'express'
import { html } from 'ghtml'
import { advanceBody, freezeBody } from '../../src/api/clock-bodies.js'
import { SNAPSHOT_NAME_RULE, snapshotName } from '../../src/api/contract/sandbox-admin.js'
import { ADVANCE_DURATION_HINT, parseAdvanceSeconds } from '../../src/duration.js'
import { toIso } from '../clock.js'
import { badRequest, notFound } from '../errors.js'
import { advanceClock, asClockChange, freezeClock, readAdvancedMs, readFrozenAtMs, unfreezeClock } from '../simulation/clock-service.js'
import { answering } from '../snapshots/state-controls.js'
import type { SnapshotInfo } from '../snapshots/snapshot-store.js'
import { when } from './dashboard-format.js'
import { dashboardHref, formOf, type DashboardKit } from './dashboard-kit.js'
import { keepSignedIn } from './dashboard-session-carry-over.js'
import type { DashboardView } from './dashboard-view.js'

/** What the page says after each action (POST-redirect-GET): fixed texts, never the URL's. */
const DONE = {
  froze: 'The business clock is frozen.',
  advanced: 'The business clock moved forward, and what came due was processed.',
  unfroze: 'The business clock runs again.',
  saved: 'Snapshot saved.',
  restored: 'Snapshot restored. You are still signed in; anyone signed in since the snapshot was saved has to sign in again.',
  reset: 'The sandbox was reset to a fresh genesis. You are still signed in; every other session is gone.',
} as const
type DoneId = keyof typeof DONE
const isDone = (value: unknown): value is DoneId => typeof value === 'string' && Object.hasOwn(DONE, value)

const PROCESSED = [
  ['expiredPayments', 'payments expired'],
  ['overdueInvoices', 'invoices overdue'],
  ['failedEscrows', 'escrow orders failed'],
  ['closedQuotes', 'bridge orders closed'],
] as const

const CLOCK_PATH = '/clock'
const backToClock = () => ({ href: dashboardHref(CLOCK_PATH), label: 'Back to the clock' })

/** A confirmation box the destructive forms carry; the action refuses without it. */
const confirmBox = (id: string, label: string): string =>
  html`<div class="confirm"><input type="checkbox" id="${id}" name="confirm" value="yes" required> <label for="${id}">${label}</label></div>`

function snapshotsSection(kit: DashboardKit, req: Request, snapshots: SnapshotInfo[]): string {
  const csrf = kit.csrfField(req)
  const rows = snapshots.map(
    (
      snapshot,
      index,
    ) => html`<tr data-testid="snapshot-row" data-name="${snapshot.name}"><td class="mono">${snapshot.name}</td><td>${snapshot.createdAt}</td><td class="num">${snapshot.size}</td>
<td><form method="post" action="${dashboardHref(`${CLOCK_PATH}/snapshots/restore`)}" class="inline" data-testid="restore-form">!${csrf}<input type="hidden" name="name" value="${snapshot.name}">
!${confirmBox(`restore-confirm-${index}`, `Replace the whole state with ${snapshot.name}`)}<button type="submit" class="danger" data-testid="restore">Restore</button></form></td></tr>`,
  )
  const list =
    snapshots.length === 0
      ? html`<p data-testid="no-snapshots">No snapshots yet.</p>`
      : html`<table data-testid="snapshots-table"><thead><tr><th scope="col">Name</th><th scope="col">Saved</th><th scope="col" class="num">Bytes</th><th scope="col">Restore</th></tr></thead><tbody>!${rows}</tbody></table>`
  return html`<section aria-labelledby="snapshots-heading"><h2 id="snapshots-heading">Snapshots</h2>!${list}
<form method="post" action="${dashboardHref(`${CLOCK_PATH}/snapshots`)}" class="stack" data-testid="save-form">!${csrf}
<div><label for="snapshot-name">Name (${SNAPSHOT_NAME_RULE})</label><input id="snapshot-name" name="name" required maxlength="64" autocomplete="off"></div>
<div class="confirm"><input type="checkbox" id="snapshot-replace" name="replace" value="yes"> <label for="snapshot-replace">Overwrite a snapshot of that name</label></div>
<button type="submit" data-testid="save">Save a snapshot</button></form>
<h2>Reset</h2>
<form method="post" action="${dashboardHref(`${CLOCK_PATH}/reset`)}" class="stack" data-testid="reset-form">!${csrf}
!${confirmBox('reset-confirm', 'Replace the whole state with a fresh genesis (same seed, keys and admin token)')}<button type="submit" class="danger" data-testid="reset">Reset the sandbox</button></form></section>`
}

function clockRoutes(kit: DashboardKit): Router {
  const router = Router()
  const { ctx } = kit
  const controls = () => {
    if (!kit.state) throw notFound('This sandbox has no snapshot controls')
    return kit.state
  }

  router.get(
    CLOCK_PATH,
    kit.handle(async (req, res) => {
      const [frozenAt, advancedMs, snapshots] = await Promise.all([
        readFrozenAtMs(ctx.db),
        readAdvancedMs(ctx.db),
        kit.state ? answering(() => kit.state!.snapshots.list(ctx.db)) : Promise.resolve(undefined),
      ])
      const csrf = kit.csrfField(req)
      const done = isDone(req.query.done) ? req.query.done : undefined
      const processed = PROCESSED.flatMap(([name, label]) => {
        const value = req.query[name]
        return typeof value === 'string' && /^\d{1,9}$/.test(value) ? [`${value} ${label}`] : []
      })
      const notice = done
        ? html`<p class="notice" role="status" data-testid="done" data-done="${done}">${DONE[done]}!${processed.length > 0 ? html` (${processed.join(', ')})` : ''}</p>`
        : ''
      const state =
        frozenAt === undefined
          ? html`<span class="badge" data-testid="clock-state" data-state="running">running</span>`
          : html`<span class="badge status-pending" data-testid="clock-state" data-state="frozen">frozen</span>`
      await kit.page(req, res, {
        title: 'Clock and state',
        current: 'clock',
        body: html`<h1>Clock and state</h1>!${notice}
<section id="clock-now" data-live aria-labelledby="clock-heading"><h2 id="clock-heading">Business clock</h2><dl class="facts" data-testid="clock">
<dt>Now</dt><dd data-testid="clock-now" data-now="${toIso(ctx.clock.now())}">!${when(ctx.clock.now())}</dd>
<dt>State</dt><dd>!${state}</dd>
<dt>Advanced</dt><dd data-testid="clock-advanced">${Math.floor(advancedMs / 1000)} s past the wall clock</dd></dl></section>
<div class="actions">
<form method="post" action="${dashboardHref(`${CLOCK_PATH}/advance`)}" data-testid="advance-form">!${csrf}<input type="hidden" name="from" value="${advancedMs}">
<label for="advance-by">Advance by (${ADVANCE_DURATION_HINT})</label><input id="advance-by" name="duration" required maxlength="100" autocomplete="off">
<button type="submit" data-testid="advance">Advance</button></form>
<form method="post" action="${dashboardHref(`${CLOCK_PATH}/freeze`)}" data-testid="freeze-form">!${csrf}
<label for="freeze-at">Freeze at (ISO 8601 with an offset, e.g. 2027-01-01T09:00:00Z; blank: now)</label><input id="freeze-at" name="at" maxlength="64" autocomplete="off">
<button type="submit" data-testid="freeze">Freeze</button></form>
<form method="post" action="${dashboardHref(`${CLOCK_PATH}/unfreeze`)}" data-testid="unfreeze-form">!${csrf}<p>Business time runs on from where it stands.</p>
<button type="submit" data-testid="unfreeze">Unfreeze</button></form>
</div>
!${snapshots === undefined ? html`<p class="notice">This sandbox was started without snapshot controls.</p>` : snapshotsSection(kit, req, snapshots)}`,
      })
    }),
  )

  router.post(
    `${CLOCK_PATH}/advance`,
    kit.handle(async (req, res) => {
      const form = formOf(req)
      const typed = form.duration ?? ''
      const seconds = parseAdvanceSeconds(typed)
      if (seconds === undefined) throw badRequest(`duration: "${typed.slice(0, 32)}" is not ${ADVANCE_DURATION_HINT}`)
      const body = advanceBody.safeParse({ seconds })
      if (!body.success) throw badRequest(`duration: ${body.error.issues[0]?.message ?? 'out of range'}`)
      // The form carries how far the clock was advanced when it was shown: a second submit of
      // the same form (or one shown before another change of the clock) moves nothing.
      const from = /^-?\d{1,16}$/.test(form.from ?? '') ? Number(form.from) : Number.NaN
      const processed = await advanceClock(ctx, body.data.seconds * 1000, { advancedMs: from })
      kit.seeOther(res, dashboardHref(CLOCK_PATH, { done: 'advanced', ...processed }))
    }, backToClock),
  )

  router.post(
    `${CLOCK_PATH}/freeze`,
    kit.handle(async (req, res) => {
      const at = formOf(req).at?.trim()
      const { at: atMs } = freezeBody.parse({ at: at === '' ? undefined : at })
      await asClockChange(() => freezeClock(ctx, atMs))
      kit.seeOther(res, dashboardHref(CLOCK_PATH, { done: 'froze' }))
    }, backToClock),
  )

  router.post(
    `${CLOCK_PATH}/unfreeze`,
    kit.handle(async (_req, res) => {
      await asClockChange(() => unfreezeClock(ctx))
      kit.seeOther(res, dashboardHref(CLOCK_PATH, { done: 'unfroze' }))
    }, backToClock),
  )

  router.post(
    `${CLOCK_PATH}/snapshots`,
    kit.handle(async (req, res) => {
      const form = formOf(req)
      const name = snapshotName.safeParse(form.name ?? '')
      if (!name.success) throw badRequest(`name: must be ${SNAPSHOT_NAME_RULE}`)
      // Without "overwrite", saving the same name twice is refused (409): a second submit changes nothing.
      await answering(() => controls().snapshots.save(ctx.db, name.data, { replace: form.replace === 'yes' }))
      kit.seeOther(res, dashboardHref(CLOCK_PATH, { done: 'saved' }))
    }, backToClock),
  )

  router.post(
    `${CLOCK_PATH}/snapshots/restore`,
    kit.handle(async (req, res) => {
      const form = formOf(req)
      const name = snapshotName.safeParse(form.name ?? '')
      if (!name.success) throw notFound(`No snapshot named "${(form.name ?? '').slice(0, 64)}"`)
      if (form.confirm !== 'yes') throw badRequest('Tick the confirmation box to restore: nothing was changed')
      const state = controls()
      const session = kit.sessionOf(req)
      // Restoring the same snapshot twice leaves the same state: a second submit is harmless.
      await answering(() => state.restore(name.data, res))
      await keepSignedIn(state.currentDb(), session)
      kit.seeOther(res, dashboardHref(CLOCK_PATH, { done: 'restored' }))
    }, backToClock),
  )

  router.post(
    `${CLOCK_PATH}/reset`,
    kit.handle(async (req, res) => {
      if (formOf(req).confirm !== 'yes') throw badRequest('Tick the confirmation box to reset: nothing was changed')
      const state = controls()
      const session = kit.sessionOf(req)
      await answering(() => state.reset(res))
      await keepSignedIn(state.currentDb(), session)
      kit.seeOther(res, dashboardHref(CLOCK_PATH, { done: 'reset' }))
    }, backToClock),
  )
  return router
}

export const clockView: DashboardView = { id: 'clock', title: 'Clock and state', path: CLOCK_PATH, adminOnly: true, routes: clockRoutes }
