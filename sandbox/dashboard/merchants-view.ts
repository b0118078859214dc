// The Merchants view (admin sessions only): every merchant with its id, settlement mode and API
// key; its secret stays hidden until an explicit "reveal" (a POST with the CSRF token, whose
// answer alone shows it, never stored in a page anyone can reload). Creating a merchant and
// rotating a secret go through the merchant services the admin API calls, once per rendered form.
import { Router, type Request, type Response } from 'express'
import { html } from 'ghtml'
import { SETTLEMENT_MODES } from '../../src/api/enumerations.js'
import { createMerchantBody } from '../../src/api/contract/sandbox-admin.js'
import type { MerchantRow } from '../db/schema.js'
import { badRequest, notFound } from '../errors.js'
import { idempotencyGate, requestFingerprint } from '../idempotency/idempotency-service.js'
import { findMerchantById, listMerchants } from '../merchants/merchant-repository.js'
import { createMerchant, rotateSecret } from '../merchants/merchant-service.js'
import { dashboardHref, formOf, type DashboardKit } from './dashboard-kit.js'
import { errorOnField, formIdempotencyKey, isRefusal, issuesOnFields, oneOf, type FormError } from './dashboard-forms.js'
import type { DashboardView } from './dashboard-view.js'

/** The idempotency scope of forms that belong to no merchant (creating one). */
const ADMIN_SCOPE = 'dashboard-admin'

interface MerchantsPage {
  merchants: MerchantRow[]
  /** The one secret this answer shows, and why. */
  shown?: { merchantId: string; secret: string; rotated: boolean }
  created?: string
  errors: FormError[]
  typed: Record<string, string>
  csrfField: string
  idempotencyField: () => string
}

function merchantRow(merchant: MerchantRow, page: MerchantsPage): string {
  const path = (action: string) => dashboardHref(`/merchants/${encodeURIComponent(merchant.id)}/${action}`)
  const shown = page.shown?.merchantId === merchant.id ? page.shown : undefined
  const secret = shown
    ? html`<code data-testid="revealed-secret">${shown.secret}</code><br><small>${shown.rotated ? 'The new secret: the old one no longer works. It is shown this once.' : 'Shown for this answer only.'}</small>`
    : html`<span data-testid="secret-hidden">hidden</span> <form method="post" action="${path('reveal')}" class="inline" data-testid="reveal-form">!${page.csrfField}<button type="submit" class="secondary" data-testid="reveal" aria-label="${`Reveal the secret of ${merchant.name}`}">Reveal</button></form>`
  const confirmId = `rotate-confirm-${merchant.id}`
  return html`<tr data-testid="merchant-row" data-merchant-id="${merchant.id}"!${page.created === merchant.id ? ' class="created"' : ''}>
<td data-testid="merchant-name">${merchant.name}</td><td class="mono">${merchant.id}</td><td>${merchant.settlement_mode}</td>
<td class="num">${merchant.escrow_fee_bps}</td><td class="mono" data-testid="api-key">${merchant.api_key}</td><td>!${secret}</td>
<td><form method="post" action="${path('rotate')}" class="stack" data-testid="rotate-form">!${page.csrfField}!${page.idempotencyField()}
<div class="check"><input type="checkbox" id="${confirmId}" name="confirm" value="yes" required><label for="${confirmId}">I am sure: rotate the secret of ${merchant.name}</label></div>
<button type="submit" class="danger" data-testid="rotate">Rotate secret</button></form></td></tr>`
}

function renderMerchantsPage(page: MerchantsPage): string {
  const value = (name: string) => page.typed[name] ?? ''
  const errorOf = (name: string) => page.errors.find((e) => e.field === name)
  const invalid = (name: string) => (errorOf(name) ? html` aria-invalid="true" aria-describedby="${`merchant-${name}-error`}"` : '')
  const errorText = (name: string) =>
    errorOf(name) ? html`<span class="field-error" id="${`merchant-${name}-error`}">${errorOf(name)!.message}</span>` : ''
  const modes = SETTLEMENT_MODES.map(
    (mode) => html`<option value="${mode}"!${value('settlement_mode') === mode ? ' selected' : ''}>${mode}</option>`,
  )
  const summary =
    page.errors.length === 0
      ? ''
      : html`<div class="notice error" role="alert" data-testid="form-errors"><p>No merchant was created:</p><ul>!${page.errors.map(
          (e) => html`<li data-testid="form-error" data-field="${e.field}">${e.field ? `${e.field}: ` : ''}${e.message}</li>`,
        )}</ul></div>`
  return html`<h1>Merchants</h1>
<p>To look at one merchant's payments and invoices, pick it with the <a href="#merchant-select">merchant selector</a> at the top.</p>
!${page.created ? html`<p class="notice" role="status" data-testid="done">Merchant created. Reveal its secret below when you need it.</p>` : ''}
<section id="merchants-list" aria-label="Merchants"><table data-testid="merchants-table"><caption class="visually-hidden">Merchants of the sandbox</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Settlement</th><th scope="col" class="num">Escrow fee (bps)</th><th scope="col">API key</th><th scope="col">Secret</th><th scope="col">Rotate</th></tr></thead>
<tbody>!${page.merchants.map((m) => merchantRow(m, page))}</tbody></table></section>
<h2>New merchant</h2>!${summary}
<form method="post" action="${dashboardHref('/merchants')}" class="stack" data-testid="create-merchant" novalidate>!${page.csrfField}!${page.idempotencyField()}
<div><label for="merchant-name">Name</label><input id="merchant-name" name="name" value="${value('name')}" maxlength="200"!${invalid('name')}>!${errorText('name')}</div>
<div><label for="merchant-settlement_mode">Settlement mode</label><select id="merchant-settlement_mode" name="settlement_mode"!${invalid('settlement_mode')}>!${modes}</select>!${errorText('settlement_mode')}</div>
<div><label for="merchant-escrow_fee_bps">Escrow fee, basis points (escrow merchants only)</label><input id="merchant-escrow_fee_bps" name="escrow_fee_bps" value="${value('escrow_fee_bps')}" inputmode="numeric"!${invalid('escrow_fee_bps')}>!${errorText('escrow_fee_bps')}</div>
<div><button type="submit" data-testid="submit-create-merchant">Create merchant</button></div></form>`
}

const merchantField = oneOf(['name', 'settlement_mode', 'escrow_fee_bps'])

/** The create form's fields as the admin API's request, or what is wrong with each. */
function readMerchantForm(form: Record<string, string>) {
  const errors: FormError[] = []
  const fee = form.escrow_fee_bps?.trim() ?? ''
  const feeValue = fee === '' ? undefined : /^\d{1,6}$/.test(fee) ? Number(fee) : Number.NaN
  if (Number.isNaN(feeValue)) errors.push({ field: 'escrow_fee_bps', message: 'must be a whole number of basis points' })
  const parsed = createMerchantBody.safeParse({
    name: form.name ?? '',
    settlement_mode: form.settlement_mode ?? '',
    escrow_fee_bps: feeValue,
  })
  if (!parsed.success) return { errors: issuesOnFields(parsed.error, ([first]) => merchantField(String(first)), errors) }
  return errors.length > 0 ? { errors } : { body: parsed.data }
}

function merchantRoutes(kit: DashboardKit): Router {
  const router = Router()
  const { ctx } = kit

  async function page(req: Request, res: Response, extra: Partial<MerchantsPage> & { status?: number } = {}) {
    const { status, ...rest } = extra
    await kit.page(req, res, {
      title: 'Merchants',
      current: 'merchants',
      status,
      body: renderMerchantsPage({
        merchants: await listMerchants(ctx.db),
        errors: [],
        typed: {},
        created: typeof req.query.created === 'string' ? req.query.created : undefined,
        csrfField: kit.csrfField(req),
        idempotencyField: () => kit.idempotencyField(),
        ...rest,
      }),
    })
  }

  async function merchantOf(id: string): Promise<MerchantRow> {
    const merchant = id.length <= 64 ? await findMerchantById(ctx.db, id) : undefined
    if (!merchant) throw notFound(`No merchant ${id.slice(0, 64)}`)
    return merchant
  }

  router.get(
    '/merchants',
    kit.handle((req, res) => page(req, res)),
  )

  router.post(
    '/merchants',
    kit.handle(async (req, res) => {
      const form = formOf(req)
      const typed = { name: form.name ?? '', settlement_mode: form.settlement_mode ?? '', escrow_fee_bps: form.escrow_fee_bps ?? '' }
      const read = readMerchantForm(form)
      if (read.errors) return page(req, res, { errors: read.errors, typed, status: 400 })
      const fingerprint = requestFingerprint('POST', '/dashboard/merchants', read.body)
      let id: string
      try {
        const answer = await idempotencyGate(ctx.db).run(
          ADMIN_SCOPE,
          formIdempotencyKey(form.idempotency_key),
          fingerprint,
          ctx.clock.now(),
          async (trx) => {
            const { body } = read
            const merchant = await createMerchant(
              trx,
              ctx.random,
              { name: body.name, settlementMode: body.settlement_mode, escrowFeeBps: body.escrow_fee_bps },
              ctx.clock.now(),
            )
            return { status: 201, body: JSON.stringify({ id: merchant.id }) }
          },
        )
        id = (JSON.parse(answer.body) as { id: string }).id
      } catch (error) {
        if (!isRefusal(error)) throw error
        return page(req, res, {
          errors: [errorOnField(error.message, merchantField)],
          typed,
          status: error.statusCode,
        })
      }
      kit.seeOther(res, dashboardHref('/merchants', { created: id }))
    }),
  )

  // Answered, not redirected: the secret is in this one response (no-store) and nowhere else.
  router.post(
    '/merchants/:id/reveal',
    kit.handle(async (req, res) => {
      const merchant = await merchantOf(String(req.params.id))
      await page(req, res, { shown: { merchantId: merchant.id, secret: merchant.api_secret, rotated: false } })
    }),
  )

  // Run once per rendered form: submitting it again (a reload) shows the secret it set, and rotates nothing more.
  router.post(
    '/merchants/:id/rotate',
    kit.handle(async (req, res) => {
      const found = await merchantOf(String(req.params.id))
      const { idempotency_key: key, confirm } = formOf(req)
      if (confirm !== 'yes') throw badRequest(`Tick the confirmation box to rotate the secret of ${found.name}; nothing was changed`)
      const fingerprint = requestFingerprint('POST', `/dashboard/merchants/${found.id}/rotate`, { confirm })
      await idempotencyGate(ctx.db).run(found.id, formIdempotencyKey(key), fingerprint, ctx.clock.now(), async (trx) => {
        await rotateSecret(trx, ctx.random, found)
        return { status: 200, body: '{}' }
      })
      const rotated = await merchantOf(found.id)
      await page(req, res, { shown: { merchantId: rotated.id, secret: rotated.api_secret, rotated: true } })
    }),
  )
  return router
}

export const merchantsView: DashboardView = {
  id: 'merchants',
  title: 'Merchants',
  path: '/merchants',
  adminOnly: true,
  routes: merchantRoutes,
}
