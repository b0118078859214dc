// What a piece of work sends to PostgreSQL, counted at pg's Client.query, grouped by the
// connection that sent it. Background work of the same process (commit notices on the LISTEN
// connection, event-position passes on pooled ones) runs meanwhile; a test counts the
// transactions it means by their BEGIN, so the count stays the request's own.
import pg from 'pg'

/** A query as pg's Client.query was given it: its text (as sent), its values, and the connection. */
export interface SentQuery {
  text: string
  values: unknown[]
  client: pg.Client
}

/**
 * Every query `work` sends through pg's Client.query, on any connection of this process, in order;
 * `onSent` sees each as it goes (what else has happened by then).
 */
export async function queriesSentBy(work: () => Promise<unknown>, onSent?: (query: SentQuery) => void): Promise<SentQuery[]> {
  const sent: SentQuery[] = []
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    // query(text, values), or query({ name, text, values }) for a statement prepared by name.
    const [first, second] = args
    const config = typeof first === 'object' && first !== null ? (first as pg.QueryConfig) : undefined
    const values = config ? config.values : second
    const one = { text: String(config ? config.text : first), values: Array.isArray(values) ? values : [], client: this }
    sent.push(one)
    onSent?.(one)
    return (query as (...a: unknown[]) => unknown).apply(this, args)
  } as typeof query
  try {
    await work()
  } finally {
    pg.Client.prototype.query = query
  }
  return sent
}

export interface SentStatements {
  /** Every statement sent, in order, whitespace collapsed. */
  all: string[]
  /** Each transaction opened with BEGIN during the work: its statements from BEGIN to its COMMIT or ROLLBACK. */
  transactions: string[][]
}

export async function statementsSentBy(work: () => Promise<unknown>): Promise<SentStatements> {
  const byClient = new Map<pg.Client, string[]>()
  const all: string[] = []
  for (const { text: sent, client } of await queriesSentBy(work)) {
    const text = sent.replace(/\s+/g, ' ')
    all.push(text)
    byClient.set(client, [...(byClient.get(client) ?? []), text])
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
