// CLI cold start of the built CLI: `paybox --version` and `paybox payments get <id>` against a
// running sandbox, the median of N spawns each, beside `node -e 0` spawned in the same rounds.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { PayboxClient } from '../../src/client/paybox-client.js'
import { figure, median, type Figure } from '../lib/figures.js'
import { directMerchant, ROOT, spawnSandbox, temporaryDir } from '../lib/processes.js'
import type { BenchSettings } from '../lib/settings.js'
import { paymentRequest } from '../lib/payment-request.js'

function timeSpawn(args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now()
  const result = spawnSync(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] })
  const elapsed = performance.now() - started
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${result.stderr.toString()}`)
  return elapsed
}

export async function cliFigures(settings: BenchSettings, log: (line: string) => void): Promise<Figure[]> {
  const sandbox = await spawnSandbox(path.join(temporaryDir('paybox-bench-cli-'), 'sandbox.db'))
  try {
    const merchant = directMerchant(sandbox.banner)
    const client = new PayboxClient({ baseUrl: sandbox.banner.baseUrl, apiKey: merchant.apiKey, apiSecret: merchant.apiSecret })
    const { id } = await client.payments.create(paymentRequest(1))
    const home = temporaryDir('paybox-bench-cli-home-')
    const env = {
      ...process.env,
      CI: '1',
      PAYBOX_HOME: home,
      PAYBOX_CONFIG_DIR: path.join(home, 'config'),
      PAYBOX_BASE_URL: sandbox.banner.baseUrl,
      PAYBOX_API_KEY: merchant.apiKey,
      PAYBOX_API_SECRET: merchant.apiSecret,
    }
    const commands: Array<[label: string, args: string[]]> = [
      ['node -e 0', ['-e', '0']],
      ['paybox --version', ['bin/run.js', '--version']],
      ['paybox payments get <id>', ['bin/run.js', 'payments', 'get', id, '--json']],
    ]
    const times = new Map<string, number[]>(commands.map(([label]) => [label, []]))
    // Interleaved rounds, so a noisy moment hurts all three alike.
    timeSpawn(['bin/run.js', '--help'], env) // warm the file cache
    for (let round = 0; round < settings.cliSpawns; round++) {
      for (const [label, args] of commands) times.get(label)!.push(timeSpawn(args, env))
    }
    const node = median(times.get('node -e 0')!)
    log(`  medians of ${settings.cliSpawns}: ${[...times].map(([label, t]) => `${label} ${median(t).toFixed(0)} ms`).join(', ')}`)
    return commands.slice(1).map(([label]) => {
      const value = median(times.get(label)!)
      return figure('cli', `${label} (cold start, median of ${settings.cliSpawns})`, value, 'ms', {
        control: { name: 'node -e 0', value: node },
        goal: '≤ 2.5× node -e 0',
        met: value <= 2.5 * node,
      })
    })
  } finally {
    await sandbox.stop()
  }
}
