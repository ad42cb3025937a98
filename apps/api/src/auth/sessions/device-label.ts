/**
 * A short, readable name for the browser and system in a User-Agent ("Firefox on Linux",
 * "Safari on iPhone"), for the account page's session list. Only the families people recognise;
 * anything else reads "Unknown browser" / "unknown system". The order of the checks matters:
 * Edge and Opera also claim Chrome, Chrome also claims Safari, Android also claims Linux.
 */
export function deviceLabel(userAgent: string | null | undefined): string {
  const ua = (userAgent ?? '').slice(0, 512);
  if (!ua) return 'Unknown device';
  return `${browserOf(ua)} on ${systemOf(ua)}`;
}

const BROWSERS: Array<[RegExp, string]> = [
  [/\bsharedown\b/i, 'Sharedown CLI'],
  [/\bcurl\//i, 'curl'],
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|OPiOS|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bYaBrowser\//, 'Yandex Browser'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\bMicroMessenger\//, 'WeChat'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\bCriOS\//, 'Chrome'],
  [/\b(?:HeadlessChrome|Chromium)\//, 'Chromium'],
  [/\bChrome\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bMSIE |\bTrident\//, 'Internet Explorer'],
  [/\bnode\b|\bundici\b/i, 'Node.js'],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

function browserOf(ua: string): string {
  return BROWSERS.find(([pattern]) => pattern.test(ua))?.[1] ?? 'Unknown browser';
}

function systemOf(ua: string): string {
  return SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1] ?? 'unknown system';
}
