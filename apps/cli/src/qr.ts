import QRCode from 'qrcode';

/**
 * A QR code of `text` to print on a terminal. With colours, dark modules on an explicit white
 * background (ANSI), which reads on dark and light terminals alike; without (NO_COLOR, TERM=dumb),
 * Unicode blocks in the terminal's own colours.
 */
export function qrCodeOf(text: string, colors: boolean): Promise<string> {
  return colors
    ? QRCode.toString(text, { type: 'terminal', small: true, errorCorrectionLevel: 'M' })
    : QRCode.toString(text, { type: 'utf8', margin: 2, errorCorrectionLevel: 'M' });
}
