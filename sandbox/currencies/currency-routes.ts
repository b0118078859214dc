// GET /currencies (spec 4.13): the supported pricing currencies, without meta.
import { CURRENCIES } from './currency-table.js'
import type { Handlers } from '../openapi/handlers.js'

const ITEMS = CURRENCIES.map(({ name, code, symbol, precision }) => ({ resource: 'currencies', name, code, symbol, precision }))

export function currencyHandlers() {
  return {
    listCurrencies: (_req, res) => {
      res.json({ items: ITEMS })
    },
  } satisfies Partial<Handlers>
}
