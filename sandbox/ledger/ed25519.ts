// Stellar's ed25519 keys and signatures through node:crypto (OpenSSL) rather than stellar-base's
// Keypair, whose pure-JS curve code builds its tables on first use: a new sandbox's genesis paid
// for that on every start. Ed25519 is deterministic, so keys and signatures are the same bytes.
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto'
import { StrKey } from '@stellar/stellar-base'

// The fixed DER envelopes (RFC 8410) around a raw 32-byte seed and a raw 32-byte public key.
const PKCS8_SEED_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')
const SPKI_KEY_PREFIX = Buffer.from('302a300506032b6570032100', 'hex')

const privateKey = (seed: Uint8Array) =>
  createPrivateKey({ key: Buffer.concat([PKCS8_SEED_PREFIX, requireLength(seed, 32, 'seed')]), format: 'der', type: 'pkcs8' })

function requireLength(bytes: Uint8Array, length: number, what: string): Uint8Array {
  if (bytes.length !== length) throw new RangeError(`An ed25519 ${what} is ${length} bytes, not ${bytes.length}`)
  return bytes
}

/** The raw public key (what a G… address encodes) of a raw 32-byte seed (what an S… secret encodes). */
export function publicKeyOfSeed(seed: Uint8Array): Buffer {
  const spki = createPublicKey(privateKey(seed)).export({ format: 'der', type: 'spki' })
  return spki.subarray(SPKI_KEY_PREFIX.length)
}

/** The 64-byte signature of `data` by the seed's key, as Keypair.sign makes it. */
export function signWithSeed(seed: Uint8Array, data: Uint8Array): Buffer {
  return sign(null, data, privateKey(seed))
}

/**
 * Whether `signature` is the raw public key's over `data`. Malformed input (a key or signature of
 * the wrong size, a key off the curve) is false, as Keypair.verify answers it, never an error.
 * Keypair.verify also refuses keys of small order, which OpenSSL does not; no seed yields one,
 * and the ledger only checks the keys of accounts it made from seeds.
 */
export function verifySignature(publicKey: Uint8Array, data: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false
  try {
    const key = createPublicKey({ key: Buffer.concat([SPKI_KEY_PREFIX, publicKey]), format: 'der', type: 'spki' })
    return verify(null, data, key, signature)
  } catch {
    return false
  }
}

/** The signature hint of a G… address's key: its last four bytes, as Keypair.signatureHint. */
export function signatureHint(accountId: string): Buffer {
  return StrKey.decodeEd25519PublicKey(accountId).subarray(-4)
}
