// What the server lends the snapshot routes and the dashboard to control the whole state: the
// snapshot store, restore and reset (app/state-swap.ts does them), and their refusals as 4xx answers.
import type { ServerResponse } from 'node:http'
import type { SandboxDb } from '../db/database.js'
import { conflict, notFound, unprocessable } from '../errors.js'
import type { MerchantCredentials } from '../merchants/merchant-service.js'
import { GateBusyError } from './request-gate.js'
import { SnapshotError, type SnapshotStore } from './snapshot-store.js'

/** What a restore or reset leaves: the merchants (their keys may differ) and business time. */
export interface StateSwapResult {
  merchants: MerchantCredentials[]
  clock: { now: string; frozenAt?: string }
}

export interface SandboxStateControls {
  snapshots: SnapshotStore
  /** Replaces the whole state with the snapshot's; `self` is the request asking (it is not waited for). */
  restore(name: string, self: ServerResponse): Promise<StateSwapResult>
  /** Replaces the whole state with a fresh genesis (same seed, keys and admin token). */
  reset(self: ServerResponse): Promise<StateSwapResult>
  /** The database the sandbox serves now: after a restore or reset, the new state's (the dashboard carries its session there). */
  currentDb(): SandboxDb
}

function snapshotErrorAsHttp(error: unknown): never {
  if (error instanceof SnapshotError) {
    if (error.kind === 'not_found') throw notFound(error.message)
    if (error.kind === 'exists')
      throw conflict('Conflict', `${error.message} (replace: true overwrites it; from the CLI: snapshot save --force)`)
    throw unprocessable('Unprocessable Entity', error.message)
  }
  if (error instanceof GateBusyError) throw conflict('Conflict', error.message)
  throw error
}

/** Runs a snapshot operation, its refusals as 4xx answers (the dashboard shares them). */
export async function answering<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work()
  } catch (error) {
    snapshotErrorAsHttp(error)
  }
}
