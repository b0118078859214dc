// Every string of the hosted checkout, in English and Spanish. Amounts and names arrive already
// formatted; the page escapes whatever these return.
import { LOCALES } from '../../src/api/enumerations.js'
import type { CheckoutAction } from './checkout-service.js'

export type Lang = (typeof LOCALES)[number]

export const isLang = (value: unknown): value is Lang => typeof value === 'string' && (LOCALES as readonly string[]).includes(value)

export interface CheckoutText {
  languageName: string
  pageTitle: (merchant: string) => string
  errorTitle: string
  amount: string
  usdc: string
  status: string
  timeLeft: string
  expiredNow: string
  paidSoFar: string
  remaining: string
  transaction: string
  walletUri: string
  qrAlt: string
  scanHint: string
  sandboxActions: string
  actions: Record<CheckoutAction, string>
  statuses: Record<string, string>
  /** Why a closed payment shows no way to pay. */
  closed: Record<string, string>
  /** What a button led to, by the status it left the payment in. */
  outcome: Record<string, string>
  underpaidOutcome: (remaining: string) => string
  payRest: string
  returnTo: (merchant: string) => string
  redirecting: (merchant: string) => string
  confirmation: string
  errors: {
    notFound: string
    cannotPayAgain: string
    notAllowed: string
    walletRefused: string
    badRequest: string
    unexpected: string
  }
  backToPayment: string
}

export const CHECKOUT_TEXT: Readonly<Record<Lang, CheckoutText>> = {
  en: {
    languageName: 'English',
    pageTitle: (merchant) => `Pay ${merchant}`,
    errorTitle: 'Payment',
    amount: 'Amount',
    usdc: 'Pay in USDC',
    status: 'Status',
    timeLeft: 'Time left',
    expiredNow: 'Expired',
    paidSoFar: 'Paid so far',
    remaining: 'Still to pay',
    transaction: 'Stellar transaction',
    walletUri: 'Wallet payment URI',
    qrAlt: 'QR code of the wallet payment URI',
    scanHint: 'Scan with a Stellar wallet, or simulate the customer with the sandbox buttons.',
    sandboxActions: 'Sandbox: simulate the customer',
    actions: { 'pay-full': 'Pay in full', 'pay-part': 'Pay part', overpay: 'Overpay', fail: 'Let it fail', cancel: 'Cancel' },
    statuses: {
      open: 'Awaiting payment',
      underpaid: 'Partially paid',
      paid: 'Paid',
      expired: 'Expired',
      failed: 'Failed',
      canceled: 'Canceled',
    },
    closed: {
      paid: 'This payment has been paid.',
      expired: 'This payment has expired.',
      failed: 'This payment failed.',
      canceled: 'This payment was canceled.',
    },
    outcome: {
      paid: 'Payment received. Thank you!',
      failed: 'The payment failed.',
      canceled: 'The payment was canceled.',
      expired: 'This payment has expired.',
    },
    underpaidOutcome: (remaining) => `Part of the payment was received: ${remaining} is still to pay.`,
    payRest: 'Pay the rest',
    returnTo: (merchant) => `Return to ${merchant}`,
    redirecting: (merchant) => `Taking you back to ${merchant} in a few seconds…`,
    confirmation: 'This page is your confirmation.',
    errors: {
      notFound: 'This payment link is not valid.',
      cannotPayAgain: 'It cannot be paid again.',
      notAllowed: 'This cannot be done with the payment as it is now.',
      walletRefused: 'The customer wallet could not make the payment.',
      badRequest: 'The request was not valid.',
      unexpected: 'Something went wrong. Please try again.',
    },
    backToPayment: 'Back to the payment',
  },
  es: {
    languageName: 'Español',
    pageTitle: (merchant) => `Pagar a ${merchant}`,
    errorTitle: 'Pago',
    amount: 'Importe',
    usdc: 'Pagar en USDC',
    status: 'Estado',
    timeLeft: 'Tiempo restante',
    expiredNow: 'Caducado',
    paidSoFar: 'Pagado hasta ahora',
    remaining: 'Falta por pagar',
    transaction: 'Transacción de Stellar',
    walletUri: 'URI de pago para billetera',
    qrAlt: 'Código QR de la URI de pago para billetera',
    scanHint: 'Escanea con una billetera Stellar o simula al cliente con los botones de prueba.',
    sandboxActions: 'Entorno de pruebas: simula al cliente',
    actions: {
      'pay-full': 'Pagar el total',
      'pay-part': 'Pagar una parte',
      overpay: 'Pagar de más',
      fail: 'Dejar que falle',
      cancel: 'Cancelar',
    },
    statuses: {
      open: 'Pendiente de pago',
      underpaid: 'Pagado en parte',
      paid: 'Pagado',
      expired: 'Caducado',
      failed: 'Fallido',
      canceled: 'Cancelado',
    },
    closed: {
      paid: 'Este pago ya está pagado.',
      expired: 'Este pago ha caducado.',
      failed: 'Este pago ha fallado.',
      canceled: 'Este pago fue cancelado.',
    },
    outcome: {
      paid: 'Pago recibido. ¡Gracias!',
      failed: 'El pago ha fallado.',
      canceled: 'El pago fue cancelado.',
      expired: 'Este pago ha caducado.',
    },
    underpaidOutcome: (remaining) => `Se recibió una parte del pago: faltan ${remaining} por pagar.`,
    payRest: 'Pagar el resto',
    returnTo: (merchant) => `Volver a ${merchant}`,
    redirecting: (merchant) => `Te llevamos de vuelta a ${merchant} en unos segundos…`,
    confirmation: 'Esta página es tu confirmación.',
    errors: {
      notFound: 'Este enlace de pago no es válido.',
      cannotPayAgain: 'No se puede volver a pagar.',
      notAllowed: 'Esto no se puede hacer con el pago en su estado actual.',
      walletRefused: 'La billetera del cliente no pudo hacer el pago.',
      badRequest: 'La solicitud no es válida.',
      unexpected: 'Algo salió mal. Inténtalo de nuevo.',
    },
    backToPayment: 'Volver al pago',
  },
}
