// What a piece of work sends to PostgreSQL, counted at pg's Client.query, grouped by the
// connection that sent it. Background work of the same process (commit notices on the LISTEN
// connection, event-position passes on pooled ones) runs meanwhile; a test counts the
// transactions it means by their BEGIN, so the count stays the request's own.
import pg from 'pg'

export interface SentStatements {
  /** Every statement sent, in order, whitespace collapsed. */
  all: string[]
  /** Each transaction opened with BEGIN during the work: its statements from BEGIN to its COMMIT or ROLLBACK. */
  transactions: string[][]
}

export async function statementsSentBy(work: () => Promise<unknown>): Promise<SentStatements> {
  const byClient = new Map<pg.Client, string[]>()
  const all: string[] = []
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first] = args
    const text = String(typeof first === 'object' && first !== null ? (first as pg.QueryConfig).text : first).replace(/\s+/g, ' ')
    all.push(text)
    byClient.set(this, [...(byClient.get(this) ?? []), text])
    return (query as (...a: unknown[]) => unknown).apply(this, args)
  } as typeof query
  try {
    await work()
  } finally {
    pg.Client.prototype.query = query
  }
  const transactions: string[][] = []
  for (const sent of byClient.values()) {
    let open: string[] | undefined
    for (const text of sent) {
      if (/^begin\b/i.test(text)) open = []
      if (!open) continue
      open.push(text)
      // A simple query of several statements may end the transaction it opened or continued: `…; commit`.
      if (/(^|; )(commit|rollback)$/i.test(text)) {
        transactions.push(open)
        open = undefined
      }
    }
  }
  return { all, transactions }
}
