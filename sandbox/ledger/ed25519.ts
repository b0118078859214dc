// Stellar's ed25519 keys and signatures through node:crypto (OpenSSL) rather than stellar-base's
// Keypair, whose pure-JS curve code builds its tables on first use: a new sandbox's genesis paid
// for that on every start. Ed25519 is deterministic, so keys and signatures are the same bytes.
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto'

// The fixed PKCS #8 envelope (RFC 8410) around a raw 32-byte seed. Keys whose public half is
// known go in as JWK instead: OpenSSL decodes DER about ten times slower than it signs.
const PKCS8_SEED_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')

const jwk = (key: { d?: Uint8Array; x: Uint8Array }) => ({
  kty: 'OKP',
  crv: 'Ed25519',
  x: Buffer.from(key.x).toString('base64url'),
  ...(key.d ? { d: Buffer.from(key.d).toString('base64url') } : {}),
})

function requireLength(bytes: Uint8Array, length: number, what: string): Uint8Array {
  if (bytes.length !== length) throw new RangeError(`An ed25519 ${what} is ${length} bytes, not ${bytes.length}`)
  return bytes
}

/** The raw public key (what a G… address encodes) of a raw 32-byte seed (what an S… secret encodes). */
export function publicKeyOfSeed(seed: Uint8Array): Buffer {
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_SEED_PREFIX, requireLength(seed, 32, 'seed')]), format: 'der', type: 'pkcs8' })
  return Buffer.from(createPublicKey(key).export({ format: 'jwk' }).x!, 'base64url')
}

/** The 64-byte signature of `data` by the key pair of a seed and its public key, as Keypair.sign makes it. */
export function signWithKey(key: { seed: Uint8Array; publicKey: Uint8Array }, data: Uint8Array): Buffer {
  const d = requireLength(key.seed, 32, 'seed')
  const x = requireLength(key.publicKey, 32, 'public key')
  return sign(null, data, createPrivateKey({ key: jwk({ d, x }), format: 'jwk' }))
}

/**
 * Malformed input is false, never an error, as with Keypair.verify. Unlike it, OpenSSL accepts keys of
 * small order: no seed yields one, and the ledger only checks keys of accounts it made from seeds.
 */
export function verifySignature(publicKey: Uint8Array, data: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== 32 || signature.length !== 64) return false
  try {
    return verify(null, data, createPublicKey({ key: jwk({ x: publicKey }), format: 'jwk' }), signature)
  } catch {
    return false
  }
}

/** The hint a decorated signature carries: the raw public key's last four bytes, as Keypair.signatureHint. */
export const signatureHint = (publicKey: Buffer): Buffer => publicKey.subarray(-4)
