// `paybox login` and `paybox sandbox status`, in-process against a real sandbox.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Payment, SandboxMerchant } from '../../src/client/types.js'
import { writeLocalSandbox } from '../../src/config/local-sandbox.js'
import { isolatedEnv, linesOf, runCli, runCliJson, type CliEnv } from '../../harness/cli.js'
import { sandboxForSuite } from '../../harness/sandbox.js'

interface StatusResult {
  baseUrl: string
  status: string
  merchants?: SandboxMerchant[]
}

describe('login and sandbox status', () => {
  const sandbox = sandboxForSuite()

  const merchant = (mode: 'direct' | 'escrow') => sandbox.merchants.find((m) => m.settlement_mode === mode)!
  const readConfig = (env: CliEnv): unknown => JSON.parse(fs.readFileSync(path.join(env.PAYBOX_CONFIG_DIR!, 'config.json'), 'utf8'))
  const createPayment = ['payments', 'create', '--amount', '2', '--description', 'After login']

  describe('login', () => {
    it('checks keys given as flags and saves them as a working profile', async () => {
      const env = isolatedEnv()
      const direct = merchant('direct')
      const login = await runCliJson(
        ['login', '--api-key', direct.apiKey, '--api-secret', direct.apiSecret, '--base-url', sandbox.url],
        env,
      )
      expect(login.exitCode).toBe(0)
      expect(login.stderr).toBe('')
      expect(login.json).toEqual({ profile: 'default', baseUrl: sandbox.url, apiKey: direct.apiKey })
      expect(readConfig(env)).toEqual({
        profiles: { default: { baseUrl: sandbox.url, apiKey: direct.apiKey, apiSecret: direct.apiSecret } },
      })
      expect(fs.statSync(path.join(env.PAYBOX_CONFIG_DIR, 'config.json')).mode & 0o777).toBe(0o600)

      // Nothing but the saved profile tells this command where to go and who it is.
      const payment = await runCliJson<Payment>(createPayment, env)
      expect(payment.exitCode).toBe(0)
      expect(payment.json.merchantName).toBe('Acme Store')
      expect(payment.json.hostedUrl.startsWith(`${sandbox.url}/`)).toBe(true)
    })

    it('saves nothing when the server rejects the keys', async () => {
      const env = isolatedEnv()
      const result = await runCli(
        ['login', '--api-key', merchant('direct').apiKey, '--api-secret', 'sk_test_not_the_secret', '--base-url', sandbox.url],
        env,
      )
      expect(result.exitCode).toBe(1)
      expect(result.stdout).toBe('')
      expect(result.stderr).toBe('Error: 401 Unauthorized: x-digest-signature does not match the request\n')
      expect(fs.existsSync(path.join(env.PAYBOX_CONFIG_DIR, 'config.json'))).toBe(false)
    })

    it('without keys and without a terminal (CI=1) fails naming --api-key instead of prompting', async () => {
      const env = isolatedEnv({ CI: '1' })
      const result = await runCli(['login', '--base-url', sandbox.url], env)
      expect(result.error).toBeUndefined()
      expect(result.exitCode).toBe(1)
      expect(result.stdout).toBe('')
      expect(linesOf(result.stderr)).toHaveLength(1)
      expect(result.stderr).toBe(
        'Error: Missing --api-key and --api-secret (pass both, or --from-sandbox; paybox does not prompt without a terminal or when CI is set)\n',
      )
      expect(fs.existsSync(path.join(env.PAYBOX_CONFIG_DIR, 'config.json'))).toBe(false)
    })

    it('--from-sandbox takes the keys and admin token from the local sandbox state file', async () => {
      const env = isolatedEnv()
      const missing = await runCli(['login', '--from-sandbox'], env)
      expect(missing.exitCode).toBe(1)
      expect(missing.stderr).toBe('Error: No local sandbox is running (start one with: paybox sandbox start)\n')

      writeLocalSandbox(
        { baseUrl: sandbox.url, adminToken: sandbox.identity.adminToken, pid: process.pid, merchants: sandbox.merchants },
        { PAYBOX_HOME: env.PAYBOX_HOME },
      )
      const direct = merchant('direct')
      const escrow = merchant('escrow')
      const login = await runCliJson(['login', '--from-sandbox'], env)
      expect(login.exitCode).toBe(0)
      expect(login.json).toEqual({ profile: 'default', baseUrl: sandbox.url, apiKey: direct.apiKey })
      const loginEscrow = await runCliJson(['login', '--from-sandbox', '--merchant', 'Bazaar Marketplace', '--profile', 'escrow'], env)
      expect(loginEscrow.exitCode).toBe(0)
      expect(loginEscrow.json).toEqual({ profile: 'escrow', baseUrl: sandbox.url, apiKey: escrow.apiKey })
      expect(readConfig(env)).toEqual({
        profiles: {
          default: { baseUrl: sandbox.url, apiKey: direct.apiKey, apiSecret: direct.apiSecret, adminToken: sandbox.identity.adminToken },
          escrow: { baseUrl: sandbox.url, apiKey: escrow.apiKey, apiSecret: escrow.apiSecret, adminToken: sandbox.identity.adminToken },
        },
      })

      const unknownMerchant = await runCli(['login', '--from-sandbox', '--merchant', 'Nobody'], env)
      expect(unknownMerchant.exitCode).toBe(1)
      expect(unknownMerchant.stderr).toBe('Error: The local sandbox has no merchant "Nobody" (one of: Acme Store, Bazaar Marketplace)\n')

      // With the state file gone, the saved profiles alone carry the connection.
      fs.rmSync(path.join(env.PAYBOX_HOME, 'sandbox.json'))
      const asEscrow = await runCliJson<Payment>([...createPayment, '--profile', 'escrow'], env)
      expect(asEscrow.exitCode).toBe(0)
      expect(asEscrow.json.merchantName).toBe('Bazaar Marketplace')
      const status = await runCliJson<StatusResult>(['sandbox', 'status'], env)
      expect(status.json.merchants).toHaveLength(2)
    })
  })

  describe('sandbox status', () => {
    const expectSeeded = (result: StatusResult) => {
      expect(result.baseUrl).toBe(sandbox.url)
      expect(result.status).toBe('ok')
      expect(result.merchants).toHaveLength(2)
      expect(result.merchants!.map((m) => m.settlement_mode).sort()).toEqual(['direct', 'escrow'])
      expect(result.merchants!.map((m) => m.id).sort()).toEqual(sandbox.merchants.map((m) => m.id).sort())
      expect(result.merchants!.find((m) => m.settlement_mode === 'direct')?.apiKey).toBe(merchant('direct').apiKey)
    }

    it('lists both merchants with --admin-token', async () => {
      const result = await runCliJson<StatusResult>(
        ['sandbox', 'status', '--base-url', sandbox.url, '--admin-token', sandbox.identity.adminToken],
        isolatedEnv(),
      )
      expect(result.exitCode).toBe(0)
      expect(result.stderr).toBe('')
      expectSeeded(result.json)
    })

    it('lists both merchants with PAYBOX_ADMIN_TOKEN', async () => {
      const result = await runCliJson<StatusResult>(
        ['sandbox', 'status'],
        isolatedEnv({ PAYBOX_BASE_URL: sandbox.url, PAYBOX_ADMIN_TOKEN: sandbox.identity.adminToken }),
      )
      expect(result.exitCode).toBe(0)
      expectSeeded(result.json)
    })

    it('without an admin token reports health only, with a notice on stderr', async () => {
      const json = await runCliJson<StatusResult>(['sandbox', 'status', '--base-url', sandbox.url], isolatedEnv())
      expect(json.exitCode).toBe(0)
      expect(json.json).toEqual({ baseUrl: sandbox.url, status: 'ok' })
      const human = await runCli(['sandbox', 'status', '--base-url', sandbox.url], isolatedEnv())
      expect(human.exitCode).toBe(0)
      expect(human.stdout).toContain(sandbox.url)
      expect(human.stdout).toContain('ok')
      expect(human.stderr).toBe('Pass --admin-token (or set PAYBOX_ADMIN_TOKEN) to list merchants.\n')
    })

    it('a wrong admin token fails with one line', async () => {
      const result = await runCli(['sandbox', 'status', '--base-url', sandbox.url, '--admin-token', 'adm_wrong'], isolatedEnv())
      expect(result.exitCode).toBe(1)
      expect(result.stdout).toBe('')
      expect(linesOf(result.stderr)).toHaveLength(1)
      expect(result.stderr).toBe('Error: 401 Unauthorized: Wrong x-sandbox-admin-token\n')
    })
  })
})
