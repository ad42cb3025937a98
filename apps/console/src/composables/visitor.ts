import type { ComposerTranslation } from 'vue-i18n';

type Device = 'desktop' | 'mobile' | 'tablet' | 'other';

/** "Desktop · Safari / macOS": the device, then the browser and system the api read from the User-Agent. */
export function describeDevice(t: ComposerTranslation, device: Device, browser: string | null, os: string | null): string {
  const software = [browser, os].filter(Boolean).join(' / ');
  return software ? `${t(`shareAnalytics.device_${device}`)} · ${software}` : t(`shareAnalytics.device_${device}`);
}

/**
 * True for a referrer on this site: a visitor who passed a password or agreement page of the link
 * arrives "from" the link itself, which tells the owner nothing.
 */
export function ownReferrer(referer: string | null, origin = typeof location === 'undefined' ? '' : location.origin): boolean {
  if (!referer) return false;
  try {
    return new URL(referer).origin === origin;
  } catch {
    return false;
  }
}
