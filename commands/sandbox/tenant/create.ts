import { Flags } from '@oclif/core'
import { SETTLEMENT_MODES } from '../../../src/api/enumerations.js'
import { ApiCommand } from '../../../src/cli/base-command.js'
import type { CreatedTenant } from '../../../src/client/types.js'
import { renderCreatedTenant, renderTenantEnv } from '../../../src/cli/render/tenants.js'

export default class SandboxTenantCreate extends ApiCommand<typeof SandboxTenantCreate> {
  static override summary = 'Create a tenant: a merchant with its own keys and business clock, for one CI job (needs the admin token)'
  static override description =
    "Parallel jobs on one sandbox each create a tenant: its payments, invoices and clock are its own, so one job's " +
    "`clock advance` or freeze leaves the others' time alone. --env prints shell exports that make later paybox calls act " +
    'as the tenant and move only its clock. Archive it with `paybox sandbox tenant delete <id>` (docs/ci.md).'

  static override examples = [
    '<%= config.bin %> <%= command.id %> --name "job 42" --json',
    '<%= config.bin %> <%= command.id %> --settlement-mode escrow --escrow-fee-bps 250 --frozen-at 2027-01-01T00:00:00Z',
    '<%= config.bin %> <%= command.id %> --name "$CI_JOB_ID" --env > tenant.env && source tenant.env',
  ]

  static override flags = {
    name: Flags.string({ description: 'Its name (default: one the sandbox picks)' }),
    'settlement-mode': Flags.string({ description: 'How its payments settle (default direct)', options: [...SETTLEMENT_MODES] }),
    'escrow-fee-bps': Flags.integer({
      description: 'Escrow tenants: default platform fee of its orders, basis points (default 0)',
      min: 0,
      max: 10_000,
    }),
    'frozen-at': Flags.string({ description: 'Start its clock frozen at this instant, ISO 8601 with a zone' }),
    env: Flags.boolean({ description: 'Print PAYBOX_* shell exports to act as the tenant instead', exclusive: ['json'] }),
  }

  public async run(): Promise<CreatedTenant> {
    const { flags } = this
    // The sandbox checks the name and the instant; its 400 names the flag that sent the field.
    const connection = this.connection()
    const tenant = await this.adminClient(connection).sandbox.createTenant({
      name: flags.name,
      settlementMode: flags['settlement-mode'] as CreatedTenant['merchant']['settlement_mode'] | undefined,
      escrowFeeBps: flags['escrow-fee-bps'],
      frozenAt: flags['frozen-at'],
    })
    this.print(flags.env ? renderTenantEnv(connection.baseUrl, tenant.merchant) : renderCreatedTenant(tenant))
    return tenant
  }
}
