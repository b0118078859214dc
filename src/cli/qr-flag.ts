// One rule for every command that can print a QR code: shown on a terminal, where someone can
// scan it; left out when stdout is piped or --json, where a script reads. --qr and --no-qr decide.
import { Flags } from '@oclif/core'

export const qrFlag = (what: string) =>
  Flags.boolean({ description: `Print ${what} as a QR code (default: on a terminal, not when piped)`, allowNo: true })

export const wantsQr = (flag: boolean | undefined): boolean => flag ?? process.stdout.isTTY === true
