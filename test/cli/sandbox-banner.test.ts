// What `sandbox start` and `sandbox clock advance` print for people: the banner fits a 100-column
// terminal without cutting a key, its curl example still signs when pasted, and every count the
// clock reports has a label in words.
import { execFile } from 'node:child_process'
import { stripVTControlCharacters, promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { advancedClockProcessedExample, sandboxClockExample } from '../../src/api/examples.js'
import { renderBanner, renderClockAdvance, type SandboxBanner } from '../../src/cli/render/sandbox.js'
import { sandboxForSuite } from '../../harness/sandbox.js'

const exec = promisify(execFile)
const sandbox = sandboxForSuite()

const bannerOf = (): SandboxBanner => ({
  baseUrl: sandbox.url,
  horizonUrl: `${sandbox.url}/horizon`,
  adminToken: sandbox.identity.adminToken,
  networkPassphrase: sandbox.identity.networkPassphrase,
  database: '/home/someone/.paybox/sandbox.db',
  joined: false,
  merchants: sandbox.merchants,
})
const lineWidths = (text: string) =>
  stripVTControlCharacters(text)
    .split('\n')
    .map((line) => line.length)

describe('the sandbox start banner', () => {
  it('fits a 100-column terminal, every key and secret whole', () => {
    const banner = bannerOf()
    const drawn = renderBanner(banner, { width: 100 })
    expect(Math.max(...lineWidths(drawn))).toBeLessThanOrEqual(100)
    expect(drawn).not.toContain('…')
    for (const merchant of banner.merchants) {
      expect(drawn).toContain(merchant.apiKey)
      expect(drawn).toContain(merchant.apiSecret)
      expect(drawn).toContain(merchant.id)
    }
    expect(drawn).toContain(banner.adminToken)
  })

  it('keeps one merchants table where it fits (or without a terminal)', () => {
    const banner = bannerOf()
    for (const drawn of [renderBanner(banner, { width: 250 }), renderBanner(banner)]) {
      const header = stripVTControlCharacters(drawn)
        .split('\n')
        .find((line) => line.includes('API secret'))
      expect(header).toMatch(/Merchant.*Mode.*Id.*API key.*API secret/)
    }
  })

  it('says whether this process made the genesis or joined a sandbox already in the database', () => {
    expect(renderBanner({ ...bannerOf(), joined: false })).toMatch(/State\s+│ new: genesis made by this process/)
    expect(renderBanner({ ...bannerOf(), joined: true })).toMatch(/State\s+│ joined the sandbox already in this database/)
  })

  it('prints a curl example that, pasted into a shell, makes a signed request the sandbox accepts', async () => {
    const text = stripVTControlCharacters(renderBanner(bannerOf(), { width: 100 }))
    const example = text.slice(text.indexOf('ts=$(date'), text.indexOf('\n\n', text.indexOf('ts=$(date')))
    const { stdout } = await exec('sh', ['-c', `${example.replace('curl -s', 'curl -s -w "\\n%{http_code}"')}`])
    expect(stdout.trim().split('\n').at(-1)).toBe('200')
    expect(JSON.parse(stdout.trim().split('\n').slice(0, -1).join('\n'))).toHaveProperty('meta')
  })
})

describe('sandbox clock advance', () => {
  it('labels every count it processed in words, none by its API name', () => {
    const drawn = stripVTControlCharacters(
      renderClockAdvance({
        ...sandboxClockExample,
        advancedSeconds: 86400,
        processed: { ...advancedClockProcessedExample, closedQuotes: 3 },
      }),
    )
    for (const name of Object.keys(advancedClockProcessedExample)) expect(drawn).not.toContain(name)
    expect(drawn).toMatch(/Cross-chain orders closed\s+│ 3/)
  })
})
