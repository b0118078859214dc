import fs from 'node:fs'
import { Flags } from '@oclif/core'
import { verifyWebhook } from '../../src/signing.js'
import { BaseCommand } from '../../src/cli/base-command.js'
import { UserError } from '../../src/user-error.js'

export interface VerifyResult {
  valid: boolean
}

export default class WebhooksVerify extends BaseCommand<typeof WebhooksVerify> {
  static override summary = 'Check a webhook signature against the raw body: prints valid (exit 0) or invalid (exit 1)'
  static override description =
    'Reads the body exactly as received, from --file or standard input, and checks the X-WEBHOOK-AUTH signature with the ' +
    "merchant's API secret, as verifyWebhook in the paybox library does. Re-serialized JSON does not verify: use the raw bytes."

  static override examples = [
    '<%= config.bin %> <%= command.id %> --secret sk_test_… --signature 9f2c… --file body.json',
    'curl -s … | <%= config.bin %> <%= command.id %> --secret sk_test_… --signature 9f2c…',
  ]

  static override flags = {
    secret: Flags.string({ description: "The merchant's API secret (sk_…)", required: true }),
    signature: Flags.string({ description: 'The X-WEBHOOK-AUTH header: 64 hex digits', required: true }),
    file: Flags.string({ description: 'File holding the raw body (default: standard input)' }),
  }

  public async run(): Promise<VerifyResult> {
    const { flags } = this
    if (!/^[0-9a-f]{64}$/i.test(flags.signature)) {
      throw new UserError(`--signature must be 64 hex digits (the X-WEBHOOK-AUTH header), got "${flags.signature.slice(0, 80)}"`)
    }
    const body = flags.file === undefined ? await readStdin() : readBodyFile(flags.file)
    const valid = verifyWebhook(body, flags.signature, flags.secret)
    this.print(valid ? 'valid' : 'invalid')
    if (!valid) process.exitCode = 1
    return { valid }
  }
}

function readBodyFile(file: string): Buffer {
  try {
    return fs.readFileSync(file)
  } catch (error) {
    throw new UserError(`Cannot read --file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
}

async function readStdin(): Promise<Buffer> {
  if (process.stdin.isTTY) throw new UserError('No body to verify', 'pass --file, or pipe the raw body into standard input')
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}
