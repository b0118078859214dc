// How big and how long each part of the bench runs: the full run, or --quick for a smoke test.

export interface BenchSettings {
  quick: boolean
  durable: boolean
  /** Seconds of load per measured figure. */
  loadSeconds: number
  /**
   * A figure with a control is measured in this many rounds of control then sandbox, loadSeconds
   * each side in all: the machine's speed drifts, and alternating spreads the drift over both.
   */
  controlRounds: number
  warmupSeconds: number
  /** Payments in the list database. */
  listPayments: number
  /** Deliveries queued for the webhook throughput figure. */
  webhookBacklog: number
  /** Payments whose event-to-receiver time is measured. */
  webhookLatencySamples: number
  /** Spawns per CLI figure (the median is reported). */
  cliSpawns: number
  /** Hostile-input cases sent (CI sends 2,500). */
  hostileCases: number
  /** SIGKILL rounds of the crash-safety run (CI runs 3). */
  crashRounds: number
  /** Past this, the reliability section stops and reports what it ran (its figures then miss their goals). */
  reliabilityBudgetSeconds: number
  /** Tenants of the sweep figures, and the due payments of each (docs/clocks.md). */
  sweepTenants: number
  duePerTenant: number
  /** --seed=N: the reliability runs' seed instead of their fixed ones, to explore or to replay a run. */
  reliabilitySeed?: number
}

export function benchSettings(argv: string[]): BenchSettings {
  const quick = argv.includes('--quick')
  const seed = argv.find((arg) => arg.startsWith('--seed='))?.slice('--seed='.length)
  const reliabilitySeed = seed === undefined ? undefined : seed.trim() === '' ? Number.NaN : Number(seed)
  // The runs' generators take 32-bit seeds.
  if (reliabilitySeed !== undefined && !(Number.isInteger(reliabilitySeed) && reliabilitySeed >= 0 && reliabilitySeed <= 0xffff_ffff)) {
    throw new Error(`--seed must be a whole number from 0 to 0xffffffff (decimal or 0x…), not ${seed}`)
  }
  return {
    quick,
    durable: argv.includes('--durable'),
    loadSeconds: quick ? 2 : 9,
    controlRounds: quick ? 1 : 3,
    warmupSeconds: quick ? 1 : 2,
    listPayments: quick ? 20_000 : 1_000_000,
    webhookBacklog: quick ? 1_000 : 20_000,
    webhookLatencySamples: quick ? 50 : 300,
    cliSpawns: quick ? 5 : 20,
    hostileCases: quick ? 2_000 : 10_000,
    crashRounds: quick ? 3 : 10,
    reliabilityBudgetSeconds: quick ? 60 : 150,
    sweepTenants: quick ? 100 : 1_000,
    duePerTenant: quick ? 10 : 100,
    reliabilitySeed,
  }
}
