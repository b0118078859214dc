import { createHash } from 'node:crypto'
import { StrKey } from '@stellar/stellar-base'
import { describe, expect, it } from 'vitest'
import { isAccountAddress } from '../../src/api/validation.js'

// The client checks addresses without loading the Stellar SDK; it must decide as the SDK does.
const raw = (label: string) => createHash('sha256').update(label).digest()
const addresses = Array.from({ length: 200 }, (_, i) => StrKey.encodeEd25519PublicKey(raw(`key ${i}`)))

describe('isAccountAddress', () => {
  it('agrees with StrKey.isValidEd25519PublicKey on real addresses and on each one-character change of them', () => {
    for (const address of addresses) {
      expect(isAccountAddress(address)).toBe(true)
      const position = address.charCodeAt(10) % address.length
      for (const char of 'ABCDGZ27a=') {
        const changed = address.slice(0, position) + char + address.slice(position + 1)
        expect(isAccountAddress(changed), changed).toBe(StrKey.isValidEd25519PublicKey(changed))
      }
    }
  })

  it('refuses what is no account address, as the SDK does', () => {
    const others = [
      '',
      'G',
      addresses[0]!.slice(0, -1),
      `${addresses[0]!}A`,
      addresses[0]!.toLowerCase(),
      StrKey.encodeEd25519SecretSeed(raw('seed')),
      StrKey.encodeContract(raw('contract')),
      StrKey.encodeMed25519PublicKey(Buffer.concat([raw('muxed'), Buffer.alloc(8)])),
    ]
    for (const text of others) expect(isAccountAddress(text), text).toBe(StrKey.isValidEd25519PublicKey(text))
  })
})
