// What a running scenario's steps share: the clients to act with, the receiver, and the
// merchant the scenario runs as. A step that does not hold throws StepFailure.
import type { SettlementMode } from '../api/enumerations.js'
import type { PayboxClient } from '../client/paybox-client.js'
import type { CreateMerchantRequest, SandboxMerchant } from '../client/types.js'
import type { BusinessClock } from '../cli/business-clock.js'
import type { ScenarioReceiver } from './receiver.js'

export interface ScenarioMerchantInfo {
  id: string
  name: string
  /** The merchant's settlement account (G…). */
  account: string
  settlement_mode: SettlementMode
}

export interface ScenarioRuntime {
  /** Signs as the scenario's merchant. */
  client: PayboxClient
  /** For the sandbox's own controls (clock, merchants); throws a hint when there is no admin token. */
  admin: () => PayboxClient
  /** The business time the scenario's merchant lives by: its tenant's own clock, else the sandbox's. */
  clock: () => BusinessClock
  /** A merchant for a createMerchant step: in a run of its own, a tenant archived with the run's. */
  createMerchant: (body: CreateMerchantRequest) => Promise<SandboxMerchant>
  merchant: ScenarioMerchantInfo
  receiver?: ScenarioReceiver
  /** Results of the steps that ran, by step id. */
  results: Record<string, unknown>
  /** Balances when the scenario started, by asset, for expectBalance's changedBy. */
  startBalances: Map<string, string>
}

/** An expectation that does not hold, or a step that cannot do what it says; the message says why. */
export class StepFailure extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'StepFailure'
  }
}

/** A value as a failure message shows it: JSON, cut short. */
export function show(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value)
  return text.length > 120 ? `${text.slice(0, 117)}…` : text
}
