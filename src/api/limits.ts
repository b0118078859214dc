// Limits of the API that the CLI checks before sending, declared once and free of zod so that a
// command can read them at start; the contract's schemas validate with them.

/** Line items per invoice. */
export const MAX_LINE_ITEMS = 100
/** An invoice line's quantity. */
export const MAX_QUANTITY = 1_000_000
