// The only place that asks the user questions. Nothing prompts without a terminal or in CI:
// a command that lacks a value fails instead and names the flag that provides it.
import type {
  CreateInvoiceRequest,
  Currency,
  Customer,
  CustomerType,
  InvoiceLineItem,
  NewCustomer,
  PostalAddress,
} from '../client/types.js'
import { amountAnswerCheck } from './amount-input.js'
import { UserError } from '../user-error.js'
import { MAX_LINE_ITEMS } from '../api/limits.js'
import { dueAnswerOf, EXPECTED, isEmailLike, quantityOf, taxOf, unitPriceOf } from './invoice-input.js'
import { customerLabel, renderInvoiceDraft, runningTotalLine } from './render/invoices.js'
import { precisionsOf } from './render/payments.js'

export function canPrompt(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY) && !env.CI
}

/** `value` if given, else asked on a terminal, else a failure naming `flag`; `validate` is the flag's own reader's check. */
export async function valueOrPrompt(
  value: string | undefined,
  flag: string,
  question: string,
  validate?: (answer: string) => true | string,
): Promise<string> {
  if (value !== undefined) return value
  if (!canPrompt()) throw new UserError(`Missing --${flag}`, `pass --${flag}; paybox does not prompt without a terminal or when CI is set`)
  const { input } = await import('@inquirer/prompts')
  return input({ message: question, required: true, validate })
}

// A command that reaches a question without a terminal (or in CI) has a bug: fail, not wait forever.
function requireTerminal(): void {
  if (!canPrompt())
    throw new UserError(
      'paybox would have to ask a question here',
      'it does not prompt without a terminal or when CI is set; pass the values as flags (see --help)',
    )
}

export async function askText(message: string, defaultValue?: string): Promise<string> {
  requireTerminal()
  const { input } = await import('@inquirer/prompts')
  return input({ message, default: defaultValue, required: true })
}

export async function askSecret(message: string): Promise<string> {
  requireTerminal()
  const { password } = await import('@inquirer/prompts')
  return password({ message, mask: '•' })
}

export async function askChoice<T extends string>(message: string, choices: Array<{ name: string; value: T }>): Promise<T> {
  requireTerminal()
  const { select } = await import('@inquirer/prompts')
  return select({ message, choices })
}

export async function askConfirm(message: string, defaultValue = false): Promise<boolean> {
  requireTerminal()
  const { confirm } = await import('@inquirer/prompts')
  return confirm({ message, default: defaultValue })
}

/** Ctrl-C during a question: nothing was done, and it is not a bug. */
async function untilCanceled<T>(ask: () => Promise<T>, canceled: string): Promise<T> {
  try {
    return await ask()
  } catch (error) {
    if (error instanceof Error && error.name === 'ExitPromptError') throw new UserError(canceled)
    throw error
  }
}

export interface InvoicePromptContext {
  currencies: Currency[]
  /** Offered first (those of recent invoices). */
  customers: Customer[]
  now: () => number
  /** Prints between questions: the running total after each item, the summary before confirming. */
  show: (text: string) => void
}

/** The interactive `invoices create`; undefined when the person declines at the last confirmation. */
export async function askInvoice(context: InvoicePromptContext): Promise<CreateInvoiceRequest | undefined> {
  requireTerminal()
  return untilCanceled(() => askInvoiceQuestions(context), 'Canceled; no invoice was created')
}

const NEW_CUSTOMER = '\0new'
const CUSTOMER_BY_ID = '\0id'
const optional = (text: string): string | undefined => (text.trim() === '' ? undefined : text.trim())

async function askInvoiceQuestions(context: InvoicePromptContext): Promise<CreateInvoiceRequest | undefined> {
  const { input, select, confirm } = await import('@inquirer/prompts')
  const precisions = precisionsOf(context.currencies)
  const currency = await select({
    message: 'Currency',
    choices: context.currencies.map((c) => ({ name: `${c.code} (${c.name})`, value: c.code })),
    default: precisions.has('USD') ? 'USD' : undefined,
  })
  const precision = precisions.get(currency)!

  const { customer, label } = await askCustomer(context.customers)
  const taxPercentage = taxOf(
    await input({ message: 'Tax %', default: '0', validate: (text) => taxOf(text) !== undefined || `Enter ${EXPECTED.tax}` }),
  )!

  const items: InvoiceLineItem[] = []
  do {
    const description = await input({
      message: `Item ${items.length + 1}: description`,
      validate: (text) => text.trim() !== '' || 'Enter a description',
    })
    const quantity = quantityOf(
      await input({
        message: 'Quantity',
        default: '1',
        validate: (text) => quantityOf(text) !== undefined || `Enter ${EXPECTED.quantity}`,
      }),
    )!
    const unitPrice = unitPriceOf(
      await input({ message: `Unit price in ${currency}`, validate: amountAnswerCheck(currency, precision, 'zero') }),
      currency,
      precision,
    ) as { value: number }
    items.push({ description: description.trim(), quantity, unit_price: unitPrice.value })
    context.show(runningTotalLine(items, taxPercentage, currency, precisions))
  } while (items.length < MAX_LINE_ITEMS && (await confirm({ message: 'Add another item?', default: false })))

  const dueText = await input({
    message: 'Due: a date, a date-time, or a duration such as 30d (empty: no due date)',
    validate: (text) =>
      text.trim() === '' || dueAnswerOf(text, context.now()) !== undefined || `Enter ${EXPECTED.due}, or ${EXPECTED.dueIn}; in the future`,
  })
  const notes = optional(await input({ message: 'Notes (empty: none)' }))

  const request: CreateInvoiceRequest = {
    currency,
    line_items: items,
    tax_percentage: taxPercentage,
    due_at: dueText.trim() === '' ? undefined : dueAnswerOf(dueText, context.now()),
    notes,
    ...customer,
  }
  context.show(renderInvoiceDraft(request, label, precisions))
  return (await confirm({ message: 'Create this invoice?', default: true })) ? request : undefined
}

type CustomerChoice = { customer: { customer_id: string } | { customer: NewCustomer }; label: string }

async function askCustomer(stored: Customer[]): Promise<CustomerChoice> {
  const { input, select, confirm } = await import('@inquirer/prompts')
  const choice = await select({
    message: 'Customer',
    choices: [
      { name: 'New customer', value: NEW_CUSTOMER },
      ...stored.map((c) => ({ name: customerLabel(c), value: c.id })),
      { name: 'Another stored customer, by id', value: CUSTOMER_BY_ID },
    ],
  })
  if (choice === CUSTOMER_BY_ID) {
    const id = (await input({ message: 'Customer id', validate: (text) => text.trim() !== '' || 'Enter the customer id' })).trim()
    return { customer: { customer_id: id }, label: id }
  }
  if (choice !== NEW_CUSTOMER) return { customer: { customer_id: choice }, label: customerLabel(stored.find((c) => c.id === choice)!) }

  const email = (await input({ message: 'Email', validate: (text) => isEmailLike(text.trim()) || `Enter ${EXPECTED.email}` })).trim()
  const customerType = await select<CustomerType>({
    message: 'Type',
    choices: [
      { name: 'Business', value: 'business' },
      { name: 'Individual', value: 'individual' },
    ],
  })
  const name = optional(await input({ message: 'Name (empty: none)' }))
  const company = customerType === 'business' ? optional(await input({ message: 'Company name (empty: none)' })) : undefined
  const vat = optional(await input({ message: 'VAT number (empty: none)' }))
  let address: PostalAddress | undefined
  if (await confirm({ message: 'Add a postal address?', default: false })) {
    const required = (message: string) => input({ message, validate: (text) => text.trim() !== '' || `Enter the ${message.toLowerCase()}` })
    address = {
      line1: (await required('Street address')).trim(),
      postal_code: (await required('Postal code')).trim(),
      city: (await required('City')).trim(),
      country: (await required('Country')).trim(),
    }
  }
  const customer: NewCustomer = { email, customer_type: customerType, name, company_name: company, vat_number: vat, address }
  return { customer: { customer }, label: customerLabel({ email, name: name ?? null, company_name: company ?? null }) }
}

/** A yes/no question where Ctrl-C counts as a refusal, reported as `canceled`. */
export async function askConfirmOrCancel(message: string, canceled: string): Promise<boolean> {
  return untilCanceled(() => askConfirm(message), canceled)
}
