// A wallet made by `paybox ledger wallet create`: its keys, balances and where to use them.
import type { SandboxWallet } from '../../client/types.js'
import { chalk, details } from '../output.js'

export function renderCreatedWallet(wallet: SandboxWallet): string {
  const summary = details([
    ['Public key', wallet.publicKey],
    ['Secret', wallet.secret],
    ['USDC', wallet.balances.USDC],
    ['XLM', wallet.balances.XLM],
    ['USDC trustline', wallet.usdcTrustline ? `limit ${wallet.usdcTrustline.limit}` : 'none: USDC paid from or to it fails in the ledger'],
    ['Funding tx', wallet.fundingTxId ?? 'none (no USDC asked for)'],
    ['Horizon', wallet.horizonUrl],
    ['Network passphrase', wallet.networkPassphrase],
  ])
  const hint = chalk.dim(
    `Sign with the secret for "${wallet.networkPassphrase}" and submit to new Horizon.Server('${wallet.horizonUrl}', { allowHttp: true }).`,
  )
  return `${summary}\n${hint}`
}
