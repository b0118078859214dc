// The ledger of a sandbox served by two replicas, each write on its own connection (run with
// PAYBOX_POSTGRES_SERIAL_WRITES=0): transfers between overlapping accounts from both replicas at
// once apply in one gapless order of positions, no balance goes below zero, the supply adds up,
// the database itself refuses an overdraft, a Horizon reader paging by cursor meanwhile misses
// nothing, and creating a payment never waits for the ledger.
import { Account, Asset, Keypair, Operation, TransactionBuilder, type Transaction } from '@stellar/stellar-base'
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NUMBERS_AS_NUMBERS } from '../../sandbox/db/postgres-database.js'
import type { Database } from '../../sandbox/db/schema.js'
import { SANDBOX_NETWORK_PASSPHRASE } from '../../sandbox/ledger/ledger-accounts.js'
import { checkInvariants } from '../../sandbox/ledger/supply-invariants.js'
import { createTestDatabase, type TestDatabase } from '../../harness/postgres.js'
import { rawRequest, type RawResponse } from '../../harness/sandbox.js'
import { adminRequest, signed, type Merchant } from '../../harness/sandbox-checks.js'
import { spawnSandbox, type SandboxProcess } from '../../harness/sandbox-process.js'
import { waitFor } from '../../harness/wait.js'

interface Wallet {
  publicKey: string
  keypair: Keypair
  /** Its sequence, kept here as a wallet keeps it: each transaction built moves it on. */
  account: Account
}

interface HorizonTransaction {
  hash: string
  paging_token: string
}

describe('the ledger on two replicas without the sandbox-wide lock', () => {
  let database: TestDatabase
  let db: Kysely<Database>
  let replicas: SandboxProcess[]
  let usdc: Asset

  const replica = (i: number) => replicas[i % replicas.length]!

  const account = async (publicKey: string) => {
    const response = await rawRequest(replica(0).banner.baseUrl, { method: 'GET', path: `/horizon/accounts/${publicKey}` })
    expect(response.status, response.text).toBe(200)
    return response.json as {
      sequence: string
      balances: Array<{ asset_type: string; asset_code?: string; asset_issuer?: string; balance: string }>
    }
  }
  const usdcBalance = async (publicKey: string) => (await account(publicKey)).balances.find((line) => line.asset_code === 'USDC')!.balance

  /** A customer wallet made through replica `i`, holding `usdc` units. */
  const wallet = async (i: number, usdcUnits: string): Promise<Wallet> => {
    const created = await adminRequest(replica(i), 'POST', '/sandbox/wallets', { usdc: usdcUnits })
    expect(created.status, created.text).toBe(201)
    const { publicKey, secret } = created.json as { publicKey: string; secret: string }
    return { publicKey, keypair: Keypair.fromSecret(secret), account: new Account(publicKey, (await account(publicKey)).sequence) }
  }

  /** USDC payments from `source` (or each payment's own sender), signed by every sender. */
  const payments = (source: Wallet, parts: Array<{ from?: Wallet; to: Wallet; amount: string }>): Transaction => {
    const builder = new TransactionBuilder(source.account, {
      fee: (100 * parts.length).toString(),
      networkPassphrase: SANDBOX_NETWORK_PASSPHRASE,
    }).setTimeout(0)
    for (const part of parts) {
      builder.addOperation(
        Operation.payment({ destination: part.to.publicKey, asset: usdc, amount: part.amount, source: part.from?.publicKey }),
      )
    }
    const tx = builder.build()
    for (const signer of new Set([source, ...parts.flatMap((part) => (part.from ? [part.from] : []))])) tx.sign(signer.keypair)
    return tx
  }

  const submit = (i: number, tx: Transaction): Promise<RawResponse> =>
    rawRequest(replica(i).banner.baseUrl, {
      method: 'POST',
      path: '/horizon/transactions',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `tx=${encodeURIComponent(tx.toEnvelope().toXDR('base64'))}`,
    })

  /** One page of the ledger's transactions after `cursor`, failed ones included, through replica `i`. */
  const page = async (i: number, cursor: string, limit = 200): Promise<HorizonTransaction[]> => {
    const response = await rawRequest(replica(i).banner.baseUrl, {
      method: 'GET',
      path: `/horizon/transactions?order=asc&limit=${limit}&include_failed=true&cursor=${cursor}`,
    })
    expect(response.status, response.text).toBe(200)
    return (response.json as { _embedded: { records: HorizonTransaction[] } })._embedded.records
  }
  const allTransactions = async (): Promise<HorizonTransaction[]> => {
    const all: HorizonTransaction[] = []
    for (let records = await page(0, '0'); records.length > 0; records = await page(0, records.at(-1)!.paging_token)) all.push(...records)
    return all
  }
  /** A paging token's transaction position (Horizon's tokens are the position shifted 12 bits). */
  const positionOf = (record: HorizonTransaction): number => Number(BigInt(record.paging_token) >> 12n)

  /** Positions 1 to n, each once: the chain has no gap and no twin. */
  const expectGapless = (records: HorizonTransaction[]) => {
    const positions = records.map(positionOf)
    expect(positions).toEqual(positions.map((_, i) => i + 1))
  }

  const expectHealthy = async () => {
    for (const each of replicas) {
      const health = await rawRequest(each.banner.baseUrl, { method: 'GET', path: '/health' })
      expect(health.status, health.text).toBe(200)
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase('paybox_ledger_replicas')
    const args = ['--port', '0', '--db', database.url, '--ledger-close', 'instant', '--quiet']
    const first = await spawnSandbox(args)
    replicas = [first, await spawnSandbox(args)]
    db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, types: NUMBERS_AS_NUMBERS, max: 2 }) }),
    })
    const issuer = (await db.selectFrom('sandbox_state').select('value').where('key', '=', 'usdc_issuer').executeTakeFirstOrThrow()).value
    usdc = new Asset('USDC', issuer)
    // Two replicas started one after the other (the second joins), on a machine that may be busy.
  }, 60_000)
  afterAll(async () => {
    await db?.destroy()
    for (const each of replicas ?? []) await each.stop()
    await database?.drop()
  })

  it('applies transfers between overlapping accounts from both replicas in one gapless order, supply conserved', async () => {
    const wallets = await Promise.all([0, 1, 2, 3].map((i) => wallet(i, '1000')))
    const rounds = 8
    // Each wallet pays the next two, in a ring: every transaction shares accounts with three
    // others, and consecutive ones of a wallet go to different replicas.
    const answers = await Promise.all(
      wallets.map(async (from, i) => {
        const statuses: number[] = []
        for (let round = 0; round < rounds; round++) {
          const to = [wallets[(i + 1) % 4]!, wallets[(i + 2) % 4]!]
          const answer = await submit(
            i + round,
            payments(from, [
              { to: to[0]!, amount: '1' },
              { to: to[1]!, amount: '2' },
            ]),
          )
          expect(answer.status, answer.text).toBe(200)
          statuses.push(answer.status)
        }
        return statuses
      }),
    )
    expect(answers.flat()).toEqual(Array(4 * rounds).fill(200))
    // Each pays 3 a round and gets 1 + 2 from the two before it.
    for (const each of wallets) expect(await usdcBalance(each.publicKey)).toBe('1000.0000000')
    expectGapless(await allTransactions())
    await checkInvariants(db)
    await expectHealthy()
  })

  it('lets an account drained from both replicas at once pay exactly what it holds', async () => {
    const [drained, payee] = [await wallet(0, '10'), await wallet(1, '0')]
    // Each attempt from a source of its own, so no two share a sequence: only the balance decides.
    const sources = await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((i) => wallet(i, '0')))
    const answers = await Promise.all(sources.map((source, i) => submit(i, payments(source, [{ from: drained, to: payee, amount: '3' }]))))
    const refused = answers.filter((answer) => answer.status !== 200)
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3)
    expect(refused).toHaveLength(5)
    for (const answer of refused) {
      expect(answer.status, answer.text).toBe(400)
      expect(answer.json).toMatchObject({ extras: { result_codes: { transaction: 'tx_failed', operations: ['op_underfunded'] } } })
    }
    expect(await usdcBalance(drained.publicKey)).toBe('1.0000000')
    expect(await usdcBalance(payee.publicKey)).toBe('9.0000000')
    expectGapless(await allTransactions())
    await checkInvariants(db)
  })

  it('pays payments from one customer wallet on both replicas at once, each on the sequence the one before left', async () => {
    const merchant = replicas[0]!.banner.merchants.find((m) => m.settlement_mode === 'direct')!
    const from = await wallet(0, '100')
    const ids = await Promise.all(
      [0, 1, 2, 3, 4, 5].map(async (i) => {
        const created = await signed(replica(i).banner.baseUrl, merchant, 'POST', '/payments', {
          amount: { value: 100, currency: 'USD' },
          description: `Paid from one wallet, ${i}`,
        })
        expect(created.status, created.text).toBe(200)
        return (created.json as { id: string }).id
      }),
    )
    // The sandbox signs each with the wallet's next sequence: read under the ledger lock, or two
    // replicas would sign the same one and the second be refused (tx_bad_seq).
    const paid = await Promise.all(
      ids.map((id, i) => signed(replica(i + 1).banner.baseUrl, merchant, 'POST', `/sandbox/payments/${id}/pay`, { from: from.publicKey })),
    )
    for (const answer of paid) {
      expect(answer.status, answer.text).toBe(200)
      expect(answer.json).toMatchObject({ status: 'paid' })
    }
    expect(await usdcBalance(from.publicKey)).toBe('94.0000000')
    expect(BigInt((await account(from.publicKey)).sequence)).toBe(BigInt(from.account.sequenceNumber()) + 6n)
    await checkInvariants(db)
  })

  it('numbers wallets made at once on both replicas apart and counts every endowment in the total coins', async () => {
    const made = await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map((i) => adminRequest(replica(i), 'POST', '/sandbox/wallets', { usdc: '1' })))
    for (const answer of made) expect(answer.status, answer.text).toBe(201)
    const labels = await db.selectFrom('ledger_accounts').select('label').where('label', 'like', 'Wallet %').execute()
    expect(new Set(labels.map((row) => row.label)).size).toBe(labels.length)
    await checkInvariants(db)
  })

  it('lets a Horizon reader paging by cursor from either replica see every transaction, in order, while both commit', async () => {
    const wallets = await Promise.all([0, 1, 2].map((i) => wallet(i, '100')))
    const start = (await allTransactions()).at(-1)!.paging_token
    let writing = true
    const writers = Promise.all(
      wallets.map(async (from, i) => {
        for (let round = 0; round < 10; round++) {
          const answer = await submit(i + round, payments(from, [{ to: wallets[(i + 1) % 3]!, amount: '1' }]))
          expect(answer.status, answer.text).toBe(200)
        }
      }),
    ).finally(() => {
      writing = false
    })
    // Marked handled: if the reader fails first, the writers' end is not what the test reports.
    writers.catch(() => {})
    // Small pages, alternating replicas, each from the last token read, as a wallet's history view
    // or a stream catching up does.
    const seen: HorizonTransaction[] = []
    let cursor = start
    for (let i = 0; writing || (await page(i, cursor)).length > 0; i++) {
      const records = await page(i, cursor, 3)
      seen.push(...records)
      if (records.length > 0) cursor = records.at(-1)!.paging_token
    }
    await writers
    const after = (await allTransactions()).filter((record) => BigInt(record.paging_token) > BigInt(start))
    expect(seen.map((record) => record.hash)).toEqual(after.map((record) => record.hash))
    expect(seen).toHaveLength(30)
    expectGapless(await allTransactions())
  })

  it('finds the supply adding up on both replicas at every instant while both commit', async () => {
    const wallets = await Promise.all([0, 1, 2].map((i) => wallet(i, '100')))
    let writing = true
    const writers = Promise.all(
      wallets.map(async (from, i) => {
        for (let round = 0; round < 10; round++) {
          const answer = await submit(i + round, payments(from, [{ to: wallets[(i + 1) % 3]!, amount: '1' }]))
          expect(answer.status, answer.text).toBe(200)
        }
      }),
    ).finally(() => {
      writing = false
    })
    writers.catch(() => {})
    // /health checks the supply: balances and totals must be read as of one instant, or a commit
    // landing between two reads makes a sound ledger look broken.
    let checks = 0
    await Promise.all(
      replicas.map(async (each) => {
        while (writing) {
          const health = await rawRequest(each.banner.baseUrl, { method: 'GET', path: '/health' })
          expect(health.status, health.text).toBe(200)
          checks++
        }
      }),
    )
    await writers
    expect(checks).toBeGreaterThan(0)
  })

  it('refuses, in the database itself, a balance below zero that the code did not stop', async () => {
    const victim = await wallet(0, '5')
    const refusal = (statement: Promise<unknown>) =>
      statement.then(
        () => undefined,
        (error: { code?: string }) => error.code,
      )
    const update = (set: string, where: string) => sql.raw(`update ledger_accounts set ${set} where ${where}`).execute(db)
    // 23514: check_violation. The victim holds 5 USDC, 50000000 stroops.
    expect(await refusal(update('usdc_balance = usdc_balance - 50000001', `public_key = '${victim.publicKey}'`))).toBe('23514')
    expect(await refusal(update('xlm_balance = -1', `public_key = '${victim.publicKey}'`))).toBe('23514')
    // The issuer's USDC is the negative of all issued: below zero is its normal state, above it is not.
    expect(await refusal(update('usdc_balance = 1', "role = 'issuer'"))).toBe('23514')
    expect(await usdcBalance(victim.publicKey)).toBe('5.0000000')
    await checkInvariants(db)
  })

  it('creates payments on both replicas while another transaction holds the ledger lock', async () => {
    const merchant: Merchant = replicas[0]!.banner.merchants.find((m) => m.settlement_mode === 'direct')!
    const holder = new pg.Client({ connectionString: database.url })
    await holder.connect()
    try {
      await holder.query('begin')
      await holder.query('select sequence from ledger_ledgers where closed_at is null for update')
      const created = await Promise.all(
        [0, 1].map((i) =>
          signed(replica(i).banner.baseUrl, merchant, 'POST', '/payments', {
            amount: { value: 500 + i, currency: 'USD' },
            description: `Made while the ledger is locked, on replica ${i}`,
          }),
        ),
      )
      for (const answer of created) expect(answer.status, answer.text).toBe(200)
      // While a ledger writer waits for it: the lock held is the one the ledger takes.
      const waiting = adminRequest(replica(1), 'POST', '/sandbox/wallets', { usdc: '1' })
      await waitFor('the wallet to wait for the ledger lock', async () => {
        const { rows } = await holder.query<{ waiting: number }>(
          `select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        )
        return rows[0]!.waiting > 0
      })
      await holder.query('rollback')
      expect((await waiting).status).toBe(201)
    } finally {
      await holder.end()
    }
  })
})
