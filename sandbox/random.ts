// Every random value the sandbox makes (keys, ids, memos, tokens, ledger keypairs) comes from
// one RandomSource, so `--seed` makes a whole run reproducible.
import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid'

export interface RandomSource {
  bytes(length: number): Buffer
  /** Time-ordered UUID (version 7) for primary keys that are inserted in time order. */
  uuidV7(msecs: number): string
  /** Random UUID (version 4) for ids that carry no time. */
  uuidV4(): string
}

/** CSPRNG bytes are drawn from node:crypto in blocks of this size, as randomUUID does. */
const POOL_BYTES = 4096
let pool = Buffer.alloc(0)
let used = 0

/**
 * Fresh bytes from node:crypto's CSPRNG, each handed out once: a payment's five small random
 * values come from one block rather than a randomBytes call each (docs/performance.md).
 */
function pooledRandomBytes(length: number): Buffer {
  if (length > POOL_BYTES / 8) return randomBytes(length)
  if (used + length > pool.length) {
    pool = randomBytes(POOL_BYTES)
    used = 0
  }
  // A copy: no caller shares memory with the pool or another caller.
  const bytes = Buffer.from(pool.subarray(used, used + length))
  pool.fill(0, used, used + length)
  used += length
  return bytes
}

export const cryptoRandom: RandomSource = {
  bytes: pooledRandomBytes,
  uuidV7: (msecs) => uuidv7({ msecs, random: pooledRandomBytes(16) }),
  uuidV4: () => randomUUID(),
}

/**
 * A deterministic stream keyed by the seed: HMAC-SHA256(seed, stream ‖ counter) blocks.
 * `stream` distinguishes sandbox boots on one database so a restart never repeats values.
 */
export function seededRandom(seed: string, stream = 'boot:0'): RandomSource {
  let counter = 0
  const bytes = (length: number): Buffer => {
    const blocks: Buffer[] = []
    let have = 0
    while (have < length) {
      const block = createHmac('sha256', seed).update(`${stream}:${counter++}`).digest()
      blocks.push(block)
      have += block.length
    }
    return Buffer.concat(blocks).subarray(0, length)
  }
  return {
    bytes,
    uuidV7: (msecs) => uuidv7({ msecs, random: bytes(16) }),
    uuidV4: () => uuidv4({ random: bytes(16) }),
  }
}

export const hex = (random: RandomSource, byteLength: number): string => random.bytes(byteLength).toString('hex')
export const base64url = (random: RandomSource, byteLength: number): string => random.bytes(byteLength).toString('base64url')
