// The wallet URI as a QR code image, rendered on the server as a PNG data URL so the page needs
// no script and no network to show it. qrcode loads with the first page, not at start-up.

/** A PNG data URL of the QR code encoding `text` exactly (error correction M, 4-module margin). */
export async function qrCodeDataUrl(text: string): Promise<string> {
  const { default: QRCode } = await import('qrcode')
  return QRCode.toDataURL(text, { type: 'image/png', errorCorrectionLevel: 'M', margin: 4, scale: 4 })
}

/** The same QR code as a PNG file, for a page that links to it rather than inlining it. */
export async function qrCodePng(text: string): Promise<Buffer> {
  const { default: QRCode } = await import('qrcode')
  return QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 4 })
}
