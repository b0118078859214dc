// Invoice numbering past numbers given by hand: the settings preview and the next auto-numbered
// invoice of a merchant with 10,000 hand-numbered invoices just ahead of its counter, beside the
// same requests of a merchant with none (the control), in the same sandbox and run.
import path from 'node:path'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { figure, median, type Figure } from '../lib/figures.js'
import { spawnSandbox, temporaryDir } from '../lib/processes.js'
import type { BenchSettings } from '../lib/settings.js'

const HAND_NUMBERED = 10_000
const SEED_CONNECTIONS = 8
const PREVIEWS = 30
const CREATES = 21

const invoice = (invoiceNumber?: string) => ({
  currency: 'USD',
  line_items: [{ description: 'Consulting', quantity: 1, unit_price: 15_000 }],
  customer: { email: 'ada@example.com', customer_type: 'individual' },
  ...(invoiceNumber === undefined ? {} : { invoice_number: invoiceNumber }),
})

async function timed(count: number, work: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    await work()
    times.push(performance.now() - started)
  }
  return times
}

export async function invoiceFigures(_settings: BenchSettings, log: (line: string) => void): Promise<Figure[]> {
  const sandbox = await spawnSandbox(path.join(temporaryDir('paybox-bench-invoices-'), 'sandbox.db'))
  try {
    const clients = sandbox.banner.merchants.map(
      (m) => new PayboxClient({ baseUrl: sandbox.banner.baseUrl, apiKey: m.apiKey, apiSecret: m.apiSecret }),
    )
    const [measured, control] = [clients[0]!, clients[1]!]
    const started = performance.now()
    // INV-0001 … INV-10000, given by hand: every one is a number the counter (at 1) would write.
    let next = 1
    await Promise.all(
      Array.from({ length: SEED_CONNECTIONS }, async () => {
        while (next <= HAND_NUMBERED) {
          const n = next++
          await measured.request('POST', '/invoices', { body: invoice(`INV-${String(n).padStart(4, '0')}`) })
        }
      }),
    )
    log(`  ${HAND_NUMBERED.toLocaleString('en-US')} hand-numbered invoices in ${((performance.now() - started) / 1000).toFixed(1)} s`)

    const previewOf = (client: PayboxClient) => timed(PREVIEWS, () => client.invoices.settings())
    const createOf = (client: PayboxClient) => timed(CREATES, () => client.request('POST', '/invoices', { body: invoice() }))
    const preview = await previewOf(measured)
    const previewControl = await previewOf(control)
    // The first create skips all 10,000; each later one still reads their index range.
    const create = await createOf(measured)
    const createControl = await createOf(control)
    const numbered = (await measured.invoices.list({ limit: 1 })).items[0]?.invoice_number
    if (numbered !== `INV-${HAND_NUMBERED + CREATES}`) throw new Error(`The last auto-numbered invoice is ${numbered}`)

    const size = HAND_NUMBERED.toLocaleString('en-US')
    const line = (label: string, times: number[], controls: number[]) =>
      log(
        `  ${label}: median ${median(times).toFixed(1)} ms, slowest ${Math.max(...times).toFixed(1)} ms (control ${median(controls).toFixed(1)} ms)`,
      )
    line('preview', preview, previewControl)
    line('auto-numbered create', create, createControl)
    return [
      figure('invoices', `GET /invoices/settings preview, ${size} hand-numbered invoices ahead`, median(preview), 'ms', {
        control: { name: 'merchant with none', value: median(previewControl) },
        goal: '< 50 ms',
        met: Math.max(...preview) < 50,
        note: `median of ${PREVIEWS}, slowest ${Math.max(...preview).toFixed(1)} ms (the goal holds for the slowest)`,
      }),
      figure('invoices', `POST /invoices auto-numbered, ${size} hand-numbered invoices ahead`, median(create), 'ms', {
        control: { name: 'merchant with none', value: median(createControl) },
        goal: '< 50 ms',
        met: Math.max(...create) < 50,
        note: `median of ${CREATES}; the first, which skips all ${size}, ${create[0]!.toFixed(1)} ms; slowest ${Math.max(...create).toFixed(1)} ms`,
      }),
    ]
  } finally {
    await sandbox.stop()
  }
}
