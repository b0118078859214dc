// How big and how long each part of the bench runs: the full run, or --quick for a smoke test.

export interface BenchSettings {
  quick: boolean
  durable: boolean
  /** Seconds of load per measured figure. */
  loadSeconds: number
  warmupSeconds: number
  /** Payments in the list database. */
  listPayments: number
  /** Deliveries queued for the webhook throughput figure. */
  webhookBacklog: number
  /** Payments whose event-to-receiver time is measured. */
  webhookLatencySamples: number
  /** Spawns per CLI figure (the median is reported). */
  cliSpawns: number
}

export function benchSettings(argv: string[]): BenchSettings {
  const quick = argv.includes('--quick')
  return {
    quick,
    durable: argv.includes('--durable'),
    loadSeconds: quick ? 2 : 8,
    warmupSeconds: quick ? 1 : 2,
    listPayments: quick ? 20_000 : 1_000_000,
    webhookBacklog: quick ? 1_000 : 20_000,
    webhookLatencySamples: quick ? 50 : 300,
    cliSpawns: quick ? 5 : 20,
  }
}
