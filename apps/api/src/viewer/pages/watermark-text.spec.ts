import { describe, expect, it } from 'vitest';
import { hasPlaceholders, watermarkText, type WatermarkFacts } from './watermark-text.js';

const at = new Date('2026-11-27T23:59:30Z');
const everything: WatermarkFacts = { email: 'ann@example.com', name: 'Ann Lee', at, ip: '198.51.100.0/24' };
const nothing: WatermarkFacts = { email: null, name: null, at, ip: null };

describe(watermarkText.name, () => {
  it('says who, when and from where', () => {
    expect(watermarkText('{name} · {email} · {date} · {ip}', everything)).toBe(
      'Ann Lee · ann@example.com · 2026-11-27 · 198.51.100.0/24',
    );
  });

  it('writes the UTC day', () => {
    expect(watermarkText('{date}', { ...nothing, at: new Date('2026-11-27T23:30:00-05:00') })).toBe('2026-11-28');
  });

  it('leaves text without placeholders as written', () => {
    expect(watermarkText('机密 — 请勿外传', nothing)).toBe('机密 — 请勿外传');
    expect(watermarkText('— Confidential —', nothing)).toBe('— Confidential —');
  });

  it('drops a placeholder with nothing to say and the separator that joined it', () => {
    expect(watermarkText('{name} · {email}', { ...everything, name: null })).toBe('ann@example.com');
    expect(watermarkText('{email} · {name}', { ...everything, name: null })).toBe('ann@example.com');
    expect(watermarkText('{name} · {email} · {date}', { ...everything, email: null })).toBe('Ann Lee · 2026-11-27');
    expect(watermarkText('{name} | {email} | {date}', { ...nothing })).toBe('2026-11-27');
  });

  it('keeps the other text around an empty placeholder, without braces or empty brackets', () => {
    expect(watermarkText('Confidential {name}', nothing)).toBe('Confidential');
    expect(watermarkText('For {name} only', nothing)).toBe('For only');
    expect(watermarkText('{email} ({name})', { ...everything, name: null })).toBe('ann@example.com');
    expect(watermarkText('{name}{email}', nothing)).toBe('');
  });

  it('never leaves braces of a known placeholder, and keeps unknown ones as text', () => {
    expect(watermarkText('{email}{name}{ip}', nothing)).not.toContain('{');
    expect(watermarkText('{team} {name}', nothing)).toBe('{team}');
  });
});

describe(hasPlaceholders.name, () => {
  it('finds the four placeholders only', () => {
    expect(hasPlaceholders('x {ip}')).toBe(true);
    expect(hasPlaceholders('x {team}')).toBe(false);
    expect(hasPlaceholders('plain')).toBe(false);
  });
});
