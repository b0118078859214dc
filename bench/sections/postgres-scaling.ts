// The scaling model of docs/postgres.md ("How it scales") tested: per-payment CPU of the replica, of
// PostgreSQL and of the load generator on one pinned replica, and from them the throughput
// predicted for two replicas pinned to one core each, beside the throughput measured.
import os from 'node:os'
import { clusterCpuMs, ownCpuMs, pinToCpu, postmasterOf, processCpuMs } from '../lib/cpu-usage.js'
import { figure, type Figure } from '../lib/figures.js'
import type { LoadResult } from '../lib/load.js'
import { directMerchant, spawnSandbox, type SandboxBanner, type ServerProcess } from '../lib/processes.js'
import { roundRobin } from '../lib/rounds.js'
import type { BenchSettings } from '../lib/settings.js'
import { WRITE_CONNECTIONS, pause, postPayments, withClient, withDatabases } from '../lib/postgres-bench.js'

/** CPU ms per POST /payments: in the replica(s), in PostgreSQL (every backend), in the load generator. */
export interface PaymentCosts {
  sandboxMs: number
  postgresMs: number
  loadMs: number
}

/**
 * The model of docs/postgres.md ("How it scales"): payments a second of `replicas` replicas on
 * `cores` cores, min(M / (c_sandbox + c_pg + c_load), N / c_sandbox, 1 / c_contended). Each
 * replica is one Node.js thread, so at most one core's worth; POST /payments locks no row shared
 * by payments (count deltas, no counter row), so the contended term is absent (infinite).
 */
export function predictedPaymentsPerSecond(costs: PaymentCosts, replicas: number, cores: number): number {
  const perPaymentMs = costs.sandboxMs + costs.postgresMs + costs.loadMs
  return Math.min((cores * 1000) / perPaymentMs, (replicas * 1000) / costs.sandboxMs)
}

/**
 * Tests the scaling model on this machine: one replica pinned to core 0 (`taskset`), its
 * per-payment CPU measured with the load (the replica's, PostgreSQL's and the load generator's
 * utime + stime from /proc); then two replicas pinned to cores 0 and 1. PostgreSQL and the load
 * generator are not pinned. The figure is measured ÷ predicted for the two, goal within ±25%.
 */
export async function scalingFigures(settings: BenchSettings, log: (line: string) => void, adminUrl: string): Promise<Figure[]> {
  return withDatabases(adminUrl, ['paybox_bench_scaling'], async ([database]) => {
    const first = await spawnSandbox(database!.url, ['--ledger-close', '5s', '--quiet'])
    const second = await spawnSandbox(database!.url, ['--ledger-close', '5s', '--quiet'])
    try {
      pinToCpu(first.child.pid!, 0)
      pinToCpu(second.child.pid!, 1)
      const postmaster = await withClient(database!.url, async (client) =>
        postmasterOf((await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid),
      )
      const merchant = directMerchant(first.banner)
      const credentials = { apiKey: merchant.apiKey, apiSecret: merchant.apiSecret }
      const write = (urls: string[], seconds: number) => postPayments(credentials, urls, seconds)
      /** CPU ms of the replicas, the cluster and the bench over each side's rounds, and its requests. */
      const used = [0, 1].map(() => ({ sandboxMs: 0, postgresMs: 0, loadMs: 0, requests: 0 }))
      const measured = (side: number, replicas: Array<ServerProcess<SandboxBanner>>) => async (seconds: number) => {
        const cpu = () => ({
          sandboxMs: replicas.reduce((sum, replica) => sum + processCpuMs(replica.child.pid!), 0),
          postgresMs: clusterCpuMs(postmaster),
          loadMs: ownCpuMs(),
        })
        const before = cpu()
        const result = await write(
          replicas.map((replica) => replica.banner.baseUrl),
          seconds,
        )
        const after = cpu()
        const total = used[side]!
        total.sandboxMs += after.sandboxMs - before.sandboxMs
        total.postgresMs += after.postgresMs - before.postgresMs
        total.loadMs += after.loadMs - before.loadMs
        total.requests += result.requests
        return result
      }
      log('  warming up both pinned replicas')
      await write([first.banner.baseUrl, second.banner.baseUrl], settings.warmupSeconds)
      await pause(second, true)
      const [one, two] = await roundRobin(settings, log, 'PostgreSQL POST /payments, pinned', WRITE_CONNECTIONS, [
        { name: '1 replica on core 0', run: measured(0, [first]) },
        {
          name: '2 replicas on cores 0 and 1',
          run: measured(1, [first, second]),
          before: () => pause(second, false),
          after: () => pause(second, true),
        },
      ])
      const perPayment = (side: number): PaymentCosts => {
        const { sandboxMs, postgresMs, loadMs, requests } = used[side]!
        return { sandboxMs: sandboxMs / requests, postgresMs: postgresMs / requests, loadMs: loadMs / requests }
      }
      const costs = perPayment(0)
      const cores = os.availableParallelism()
      const show = (c: PaymentCosts) =>
        `sandbox ${c.sandboxMs.toFixed(2)} ms, PostgreSQL ${c.postgresMs.toFixed(2)} ms, load generator ${c.loadMs.toFixed(2)} ms`
      log(`  CPU per POST /payments, 1 replica: ${show(costs)}; 2 replicas: ${show(perPayment(1))}`)
      // Cores' worth the measured processes got: on a machine shared with other work, below M.
      const coresUsed = (side: number, result: LoadResult) => {
        const { sandboxMs, postgresMs, loadMs } = used[side]!
        return (sandboxMs + postgresMs + loadMs) / (result.seconds * 1000)
      }
      log(
        `  cores used: 1 replica ${coresUsed(0, one!).toFixed(2)}, 2 replicas ${coresUsed(1, two!).toFixed(2)} (of ${os.availableParallelism()})`,
      )
      // The table of docs/postgres.md ("How it scales"), from this run's costs, load generator included.
      for (const m of [2, 4, 8])
        log(
          `  how it scales, M = ${m} cores: ${[1, 2, 4].map((n) => `N = ${n}: ${Math.round(predictedPaymentsPerSecond(costs, n, m))} req/s`).join(', ')}`,
        )
      const predictedOne = predictedPaymentsPerSecond(costs, 1, cores)
      const predictedTwo = predictedPaymentsPerSecond(costs, 2, cores)
      log(
        `  predicted on ${cores} cores: 1 replica ${Math.round(predictedOne)} req/s (measured ${Math.round(one!.requestsPerSecond)}), 2 replicas ${Math.round(predictedTwo)} req/s (measured ${Math.round(two!.requestsPerSecond)})`,
      )
      // On a machine shared with other work the processes get fewer than M cores: the same model
      // with M = the cores they got while the two ran tests the per-payment costs alone.
      const gotCores = coresUsed(1, two!)
      const predictedOnGot = predictedPaymentsPerSecond(costs, 2, gotCores)
      const extra = perPayment(1).sandboxMs - costs.sandboxMs
      log(
        `  predicted on the ${gotCores.toFixed(2)} cores they got: 2 replicas ${Math.round(predictedOnGot)} req/s; sandbox CPU per payment with 2 replicas ${extra >= 0 ? '+' : ''}${extra.toFixed(2)} ms (each replica's work on hearing the other's commits)`,
      )
      const percent = (100 * two!.requestsPerSecond) / predictedTwo
      const percentOnGot = (100 * two!.requestsPerSecond) / predictedOnGot
      const pinning = 'replicas pinned with taskset -c 0 and -c 1, PostgreSQL and the load generator unpinned'
      return [
        figure('postgres', 'PostgreSQL POST /payments, 2 pinned replicas, measured as % of predicted', percent, '%', {
          goal: '75–125%',
          met: percent >= 75 && percent <= 125,
          note: `predicted ${Math.round(predictedTwo)} req/s from 1 replica's CPU per payment (${show(costs)}) on ${cores} cores; ${pinning}`,
        }),
        figure(
          'postgres',
          'PostgreSQL POST /payments, 2 pinned replicas, measured as % of predicted on the cores they got',
          percentOnGot,
          '%',
          {
            goal: '75–125%',
            met: percentOnGot >= 75 && percentOnGot <= 125,
            note: `predicted ${Math.round(predictedOnGot)} req/s on the ${gotCores.toFixed(2)} cores the replicas, PostgreSQL and the load generator used together; ${pinning}`,
          },
        ),
      ]
    } finally {
      await pause(second, false)
      await Promise.all([first.stop(), second.stop()])
    }
  })
}
