import { createHash } from 'node:crypto'
import { Keypair, StrKey } from '@stellar/stellar-base'
import { describe, expect, it } from 'vitest'
import { publicKeyOfSeed, signatureHint, signWithKey, verifySignature } from '../../sandbox/ledger/ed25519.js'
import { newKeypair } from '../../sandbox/ledger/ledger-accounts.js'
import { seededRandom } from '../../sandbox/random.js'

// node:crypto's ed25519 must be byte for byte what stellar-base's Keypair computes: the ledger's
// keys, signatures and transaction hashes are real Stellar ones.
const bytes = (label: string, length = 32) => {
  const out = Buffer.alloc(length)
  for (let at = 0, block = 0; at < length; block++) at += createHash('sha256').update(`${label}/${block}`).digest().copy(out, at)
  return out
}
const seeds = [Buffer.alloc(32, 0), Buffer.alloc(32, 0xff), ...Array.from({ length: 100 }, (_, i) => bytes(`seed ${i}`))]
const messages = [Buffer.alloc(0), Buffer.from('a'), bytes('transaction hash'), bytes('long message', 1500)]

/** stellar-base's verify, asked through a Keypair as the SDK and stellar-core's clients do. */
const stellarVerifies = (publicKey: Buffer, data: Buffer, signature: Buffer) =>
  Keypair.fromPublicKey(StrKey.encodeEd25519PublicKey(publicKey)).verify(data, signature)

describe('ed25519 through node:crypto', () => {
  it("gives each seed the public key, address and hint of stellar-base's Keypair", () => {
    for (const seed of seeds) {
      const keypair = Keypair.fromRawEd25519Seed(seed)
      expect(publicKeyOfSeed(seed).equals(keypair.rawPublicKey())).toBe(true)
      expect(signatureHint(keypair.rawPublicKey()).equals(keypair.signatureHint())).toBe(true)
    }
    const random = seededRandom('accounts')
    const again = seededRandom('accounts')
    for (let i = 0; i < 20; i++) {
      const keypair = Keypair.fromRawEd25519Seed(again.bytes(32))
      expect(newKeypair(random)).toEqual({ publicKey: keypair.publicKey(), secret: keypair.secret() })
    }
  })

  it('signs every message with the same 64 bytes as Keypair.sign', () => {
    for (const seed of seeds) {
      const keypair = Keypair.fromRawEd25519Seed(seed)
      const key = { seed, publicKey: keypair.rawPublicKey() }
      for (const message of messages) expect(signWithKey(key, message).equals(keypair.sign(message))).toBe(true)
    }
  })

  it('accepts and refuses the same signatures as Keypair.verify', () => {
    const order = 2n ** 252n + 27742317777372353535851937790883648493n
    const littleEndian = (value: bigint) => Buffer.from(value.toString(16).padStart(64, '0'), 'hex').reverse()
    for (const [index, seed] of seeds.slice(0, 20).entries()) {
      const publicKey = publicKeyOfSeed(seed)
      const otherKey = publicKeyOfSeed(seeds[index + 1]!)
      const message = messages[index % messages.length]!
      const signature = signWithKey({ seed, publicKey }, message)
      const tampered = Buffer.from(signature)
      tampered[index % 64]! ^= 1 << (index % 8)
      const s = BigInt(`0x${Buffer.from(signature.subarray(32)).reverse().toString('hex')}`)
      const cases: Array<[string, Buffer, Buffer, Buffer]> = [
        ['valid', publicKey, message, signature],
        ['another message', publicKey, Buffer.concat([message, Buffer.from('x')]), signature],
        ['another key', otherKey, message, signature],
        ['a flipped bit', publicKey, message, tampered],
        ['S + L (non-canonical)', publicKey, message, Buffer.concat([signature.subarray(0, 32), littleEndian(s + order)])],
        ['too short', publicKey, message, signature.subarray(0, 63)],
        ['too long', publicKey, message, Buffer.concat([signature, Buffer.alloc(1)])],
        ['no signature', publicKey, message, Buffer.alloc(0)],
        ['a key off the curve', Buffer.from(`02${'00'.repeat(31)}`, 'hex'), message, signature],
      ]
      for (const [name, key, data, candidate] of cases) {
        const expected = stellarVerifies(key, data, candidate)
        expect(verifySignature(key, data, candidate), name).toBe(expected)
        expect(expected, name).toBe(name === 'valid')
      }
    }
    const signature = signWithKey({ seed: seeds[0]!, publicKey: publicKeyOfSeed(seeds[0]!) }, messages[0]!)
    expect(verifySignature(Buffer.alloc(31), messages[0]!, signature)).toBe(false)
  })
})
