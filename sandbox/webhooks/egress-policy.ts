// The webhook egress policy belongs to the sandbox, not to a process (issue 29): it is stored with
// the sandbox, every replica checks the stored one at creation and at send time, and a replica
// that joins running ones with another policy is refused, so no replica sends where another's
// operator forbade it. Set by a start that no other replica is serving (a restart, or SQLite's one process).
import type { Kysely } from 'kysely'
import { SandboxConfigError } from '../config-error.js'
import { runTransaction, servingReplicas, type SandboxDb } from '../db/database.js'
import type { Database } from '../db/schema.js'
import { findEgressPolicy, saveEgressPolicy } from './egress-policy-repository.js'
import { AllowListError, ALLOW_WEBHOOK_TO_FLAG, WebhookEgress } from './webhook-egress.js'

export interface EgressPolicy {
  /** Internal addresses are refused (--shared, or a non-loopback --host). */
  shared: boolean
  /** The --allow-webhook-to entries, trimmed, lower case, sorted, once each; none when not shared. */
  allowWebhookTo: string[]
}

/** A process's policy from its flags; a malformed --allow-webhook-to entry is refused before anything starts. */
export function egressPolicyOf(shared: boolean, allow: readonly string[] = []): EgressPolicy {
  try {
    new WebhookEgress({ shared, allow })
  } catch (error) {
    throw error instanceof AllowListError ? new SandboxConfigError(error.message) : error
  }
  // Exceptions only mean something to a shared sandbox: a local one sends anywhere anyway.
  const allowWebhookTo = shared ? [...new Set(allow.map((entry) => entry.trim().toLowerCase()))].sort() : []
  return { shared, allowWebhookTo }
}

/** In the words of the flags that make it: "--shared --allow-webhook-to 10.0.0.0/8", or "local (no --shared)". */
export function describeEgressPolicy(policy: EgressPolicy): string {
  if (!policy.shared) return 'local (no --shared: webhooks may go to any address)'
  return ['--shared', ...policy.allowWebhookTo.map((entry) => `${ALLOW_WEBHOOK_TO_FLAG} ${entry}`)].join(' ')
}

const sameEgressPolicy = (a: EgressPolicy, b: EgressPolicy): boolean =>
  a.shared === b.shared && a.allowWebhookTo.join('\n') === b.allowWebhookTo.join('\n')

const toRow = (policy: EgressPolicy) => ({ shared: policy.shared ? 1 : 0, allow_webhook_to: JSON.stringify(policy.allowWebhookTo) })

export async function readEgressPolicy(db: Kysely<Database>): Promise<EgressPolicy | undefined> {
  const row = await findEgressPolicy(db)
  return row && { shared: row.shared === 1, allowWebhookTo: JSON.parse(row.allow_webhook_to) as string[] }
}

/**
 * At a replica's start, after it entered the serving barrier: stores `policy` if the sandbox has
 * none or no other replica serves it (returning a note when it changed), and refuses a replica
 * that would join running ones with another.
 */
export async function settleEgressPolicy(db: SandboxDb, policy: EgressPolicy): Promise<string | undefined> {
  return runTransaction(db, async (trx) => {
    const stored = await readEgressPolicy(trx)
    if (stored !== undefined && sameEgressPolicy(stored, policy)) return undefined
    if (stored !== undefined && ((await servingReplicas(db, trx)) ?? 0) > 1) {
      throw new SandboxConfigError(
        `This replica's webhook egress policy (${describeEgressPolicy(policy)}) differs from the sandbox's, which the running replicas enforce ` +
          `(${describeEgressPolicy(stored)}): start it with the same flags, or stop every replica to change it`,
      )
    }
    await saveEgressPolicy(trx, toRow(policy))
    return stored === undefined
      ? undefined
      : `Note: the sandbox's webhook egress policy was ${describeEgressPolicy(stored)}; it is now ${describeEgressPolicy(policy)}`
  })
}

/** After a restore or reset: the new state carries the sandbox's policy, not the one it was saved with. */
export async function keepEgressPolicy(db: SandboxDb, policy: EgressPolicy): Promise<void> {
  const stored = await readEgressPolicy(db)
  if (stored === undefined || !sameEgressPolicy(stored, policy)) await saveEgressPolicy(db, toRow(policy))
}

/** The stored policy as a WebhookEgress, made again only when the row changes (its connection pools are keyed by it). */
export class StoredEgress {
  #cached: { key: string; egress: WebhookEgress } | undefined

  /** `fallback`: this process's own policy, for a database that holds none yet. */
  constructor(private readonly fallback: EgressPolicy) {}

  async read(db: Kysely<Database>): Promise<WebhookEgress> {
    const policy = (await readEgressPolicy(db)) ?? this.fallback
    const key = JSON.stringify(policy)
    if (this.#cached?.key !== key)
      this.#cached = { key, egress: new WebhookEgress({ shared: policy.shared, allow: policy.allowWebhookTo }) }
    return this.#cached.egress
  }
}
