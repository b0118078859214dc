// The origin chains and tokens a customer can pay from through the simulated bridge (spec 4.5),
// in one table: decimals, a fixed sandbox USD rate, and each chain's address format. Change a
// row here and quotes, validation and GET /cross-chain/chains follow.
import bs58 from 'bs58'
import type { RandomSource } from '../random.js'

export type AddressFormat = 'evm' | 'solana'

export interface OriginToken {
  symbol: string
  decimals: number
  /** USD per whole token, exact decimal text. */
  usdRate: string
}

export interface OriginChain {
  id: string
  name: string
  addressFormat: AddressFormat
  tokens: readonly OriginToken[]
}

const USDC: OriginToken = { symbol: 'USDC', decimals: 6, usdRate: '1' }
const USDT: OriginToken = { symbol: 'USDT', decimals: 6, usdRate: '1' }
const ETH: OriginToken = { symbol: 'ETH', decimals: 18, usdRate: '3000' }

export const ORIGIN_CHAINS: readonly OriginChain[] = [
  { id: 'ethereum', name: 'Ethereum', addressFormat: 'evm', tokens: [USDC, USDT, ETH] },
  { id: 'base', name: 'Base', addressFormat: 'evm', tokens: [USDC, ETH] },
  { id: 'arbitrum', name: 'Arbitrum One', addressFormat: 'evm', tokens: [USDC, USDT, ETH] },
  { id: 'polygon', name: 'Polygon PoS', addressFormat: 'evm', tokens: [USDC, USDT, { symbol: 'POL', decimals: 18, usdRate: '0.5' }] },
  { id: 'solana', name: 'Solana', addressFormat: 'solana', tokens: [USDC, USDT, { symbol: 'SOL', decimals: 9, usdRate: '150' }] },
]

/** The simulated bridge keeps this share of what is sent, in basis points (0.30%). */
export const BRIDGE_FEE_BPS = 30

export const findChain = (id: string): OriginChain | undefined => ORIGIN_CHAINS.find((chain) => chain.id === id)
export const findToken = (chain: OriginChain, symbol: string): OriginToken | undefined =>
  chain.tokens.find((token) => token.symbol === symbol)

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/

/**
 * Whether `address` is a well-formed address of the chain: 0x and 40 hex digits on EVM chains
 * (the EIP-55 checksum of mixed-case addresses is not verified), base58 of a 32-byte public key
 * on Solana.
 */
export function isValidAddress(format: AddressFormat, address: string): boolean {
  if (format === 'evm') return EVM_ADDRESS.test(address)
  if (address.length < 32 || address.length > 44) return false
  try {
    return bs58.decode(address).length === 32
  } catch {
    return false
  }
}

/** The most one transfer can carry: an ERC-20 or native amount is a uint256, an SPL or SOL amount a u64. */
export const MAX_TRANSFER_UNITS: Record<AddressFormat, bigint> = { evm: 2n ** 256n - 1n, solana: 2n ** 64n - 1n }

/** A fresh transaction hash in the chain's format: 0x and 32 bytes in hex, or a base58 signature of 64 bytes. */
export function newOriginTxHash(format: AddressFormat, random: RandomSource): string {
  return format === 'evm' ? `0x${Buffer.from(random.bytes(32)).toString('hex')}` : bs58.encode(random.bytes(64))
}

/** A fresh deposit address in the chain's format, from the sandbox's random source. */
export function newDepositAddress(format: AddressFormat, random: RandomSource): string {
  return format === 'evm' ? `0x${Buffer.from(random.bytes(20)).toString('hex')}` : bs58.encode(random.bytes(32))
}
