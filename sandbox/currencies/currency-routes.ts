// GET /currencies (spec 4.13): the supported pricing currencies, without meta.
import { Router } from 'express'
import { CURRENCIES } from './currency-table.js'

const ITEMS = CURRENCIES.map(({ name, code, symbol, precision }) => ({ resource: 'currencies', name, code, symbol, precision }))

export function currencyRoutes(): Router {
  return Router().get('/currencies', (_req, res) => {
    res.json({ items: ITEMS })
  })
}
