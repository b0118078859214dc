// `paybox config …` and where commands take their connection from (flags beat env beat profile).
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Payment } from '../../src/client/types.js'
import { isolatedEnv, linesOf, runCli, runCliJson } from '../../harness/cli.js'
import { sandboxForSuite } from '../../harness/sandbox.js'

const mode = (file: string): number => fs.statSync(file).mode & 0o777

describe('paybox config', () => {
  it('set creates a 0600 config file in a 0700 folder, get reads it back, list masks secrets', async () => {
    const env = isolatedEnv()
    const file = path.join(env.PAYBOX_CONFIG_DIR, 'config.json')
    expect(fs.existsSync(env.PAYBOX_CONFIG_DIR)).toBe(false)

    const set = await runCli(['config', 'set', 'baseUrl', 'http://127.0.0.1:4242'], env)
    expect(set.exitCode).toBe(0)
    expect(set.stderr).toBe('')
    expect(set.stdout).toBe(`Set baseUrl in profile "default" (${file}).\n`)
    expect((await runCli(['config', 'set', 'apiKey', 'pk_test_abc'], env)).exitCode).toBe(0)
    expect((await runCli(['config', 'set', 'apiSecret', 'sk_test_abcdefghijklmnop'], env)).exitCode).toBe(0)
    expect((await runCli(['config', 'set', 'apiKey', 'pk_test_staging', '--profile', 'staging'], env)).exitCode).toBe(0)

    expect(mode(file)).toBe(0o600)
    expect(mode(env.PAYBOX_CONFIG_DIR)).toBe(0o700)
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      profiles: {
        default: { baseUrl: 'http://127.0.0.1:4242', apiKey: 'pk_test_abc', apiSecret: 'sk_test_abcdefghijklmnop' },
        staging: { apiKey: 'pk_test_staging' },
      },
    })
    // No temporary file is left behind by the atomic write.
    expect(fs.readdirSync(env.PAYBOX_CONFIG_DIR)).toEqual(['config.json'])

    const get = await runCli(['config', 'get', 'apiKey'], env)
    expect(get).toMatchObject({ exitCode: 0, stdout: 'pk_test_abc\n', stderr: '' })
    const getStaging = await runCliJson(['config', 'get', 'apiKey', '--profile', 'staging'], env)
    expect(getStaging.json).toEqual({ profile: 'staging', key: 'apiKey', value: 'pk_test_staging' })
    const getFromEnvProfile = await runCli(['config', 'get', 'apiKey'], { ...env, PAYBOX_PROFILE: 'staging' })
    expect(getFromEnvProfile.stdout).toBe('pk_test_staging\n')

    const list = await runCliJson(['config', 'list'], env)
    expect(list.exitCode).toBe(0)
    expect(list.json).toEqual({
      file,
      profiles: {
        default: { baseUrl: 'http://127.0.0.1:4242', apiKey: 'pk_test_abc', apiSecret: 'sk_test_…mnop' },
        staging: { apiKey: 'pk_test_staging' },
      },
    })
    const human = await runCli(['config', 'list'], env)
    expect(human.exitCode).toBe(0)
    expect(human.stdout).toContain('sk_test_…mnop')
    expect(human.stdout).toContain('pk_test_abc')
    expect(human.stdout).not.toContain('sk_test_abcdefghijklmnop')
    const shown = await runCliJson<{ profiles: Record<string, Record<string, string>> }>(['config', 'list', '--show-secrets'], env)
    expect(shown.json.profiles.default?.apiSecret).toBe('sk_test_abcdefghijklmnop')
  })

  it('get of an unknown or unset key fails with one line', async () => {
    const env = isolatedEnv()
    await runCli(['config', 'set', 'apiKey', 'pk_test_abc'], env)

    const unknown = await runCli(['config', 'get', 'nope'], env)
    expect(unknown.exitCode).toBe(1)
    expect(unknown.stdout).toBe('')
    expect(linesOf(unknown.stderr)).toHaveLength(1)
    expect(unknown.stderr).toBe('Error: Unknown setting "nope" (one of baseUrl, apiKey, apiSecret, adminToken)\n')

    const unset = await runCli(['config', 'get', 'adminToken'], env)
    expect(unset.exitCode).toBe(1)
    expect(unset.stdout).toBe('')
    expect(unset.stderr).toBe('Error: Profile "default" has no adminToken (set it with: paybox config set adminToken <value>)\n')
  })

  it('set refuses an unknown key and a non-http baseUrl, leaving no config file', async () => {
    const env = isolatedEnv()
    const badKey = await runCli(['config', 'set', 'colour', 'blue'], env)
    expect(badKey.exitCode).toBe(1)
    expect(badKey.stderr).toBe('Error: Unknown setting "colour" (one of baseUrl, apiKey, apiSecret, adminToken)\n')
    const badUrl = await runCli(['config', 'set', 'baseUrl', 'ftp://example.test'], env)
    expect(badUrl.exitCode).toBe(1)
    expect(badUrl.stderr).toBe('Error: baseUrl must be an absolute http(s) URL, got "ftp://example.test"\n')
    expect(fs.existsSync(path.join(env.PAYBOX_CONFIG_DIR, 'config.json'))).toBe(false)
  })
})

describe('connection settings', () => {
  const sandbox = sandboxForSuite()

  const merchant = (mode: 'direct' | 'escrow') => sandbox.merchants.find((m) => m.settlement_mode === mode)!
  const create = ['payments', 'create', '--amount', '1', '--description', 'Who am I']

  it('flags beat environment beat profile', async () => {
    const env = isolatedEnv()
    // The profile points at the sandbox, with a key it does not know.
    for (const [key, value] of [
      ['baseUrl', sandbox.url],
      ['apiKey', 'pk_test_wrong'],
      ['apiSecret', 'sk_test_wrong_secret'],
    ]) {
      expect((await runCli(['config', 'set', key!, value!], env)).exitCode).toBe(0)
    }
    const fromProfile = await runCli(create, env)
    expect(fromProfile.exitCode).toBe(1)
    expect(fromProfile.stderr).toBe('Error: 401 Unauthorized: Signature verification failed: Unknown API key in x-digest-key\n')

    // Environment keys win over the profile's (whose baseUrl still applies).
    const escrow = merchant('escrow')
    const withEnv = { ...env, PAYBOX_API_KEY: escrow.apiKey, PAYBOX_API_SECRET: escrow.apiSecret }
    const fromEnv = await runCliJson<Payment>(create, withEnv)
    expect(fromEnv.exitCode).toBe(0)
    expect(fromEnv.json.merchantName).toBe('Bazaar Marketplace')
    expect(fromEnv.json.hostedUrl.startsWith(`${sandbox.url}/`)).toBe(true)

    // Flags win over both; the environment's unreachable base URL is not used.
    const direct = merchant('direct')
    const fromFlags = await runCliJson<Payment>(
      [...create, '--base-url', sandbox.url, '--api-key', direct.apiKey, '--api-secret', direct.apiSecret],
      { ...withEnv, PAYBOX_BASE_URL: 'http://127.0.0.1:1' },
    )
    expect(fromFlags.exitCode).toBe(0)
    expect(fromFlags.json.merchantName).toBe('Acme Store')
  })

  it('a missing API key is a one-line user error naming --api-key, not a crash', async () => {
    const result = await runCli(['payments', 'list'], isolatedEnv({ PAYBOX_BASE_URL: sandbox.url }))
    expect(result.error).toBeUndefined()
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe('')
    expect(linesOf(result.stderr)).toHaveLength(1)
    expect(result.stderr).toBe(
      `Error: No API key and secret for ${sandbox.url} (pass --api-key and --api-secret, set PAYBOX_API_KEY and PAYBOX_API_SECRET, or run: paybox login)\n`,
    )
  })

  it('an unknown --profile is a one-line user error, not a crash', async () => {
    const env = isolatedEnv({ PAYBOX_BASE_URL: sandbox.url })
    const result = await runCli(['payments', 'list', '--profile', 'nope'], env)
    expect(result.error).toBeUndefined()
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe('')
    expect(linesOf(result.stderr)).toHaveLength(1)
    expect(result.stderr).toBe('Error: No profile named "nope" (see: paybox config list)\n')
  })
})
