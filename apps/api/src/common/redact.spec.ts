import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact.js';

describe(redactUrl.name, () => {
  it.each([
    ['/s/alice/Ab3dEfGhIjKlMnOpQrStUv', '/s/[redacted]/[redacted]'],
    ['/s/Ab3dEfGhIjKlMnOpQrStUv', '/s/[redacted]'],
    ['/s/alice/my-slug/report', '/s/[redacted]/[redacted]/report'],
    ['/s/_render/eyJ2IjoiMSJ9.c2lnbmF0dXJl', '/s/_render/[redacted]'],
    ['/s/_bounce/return?ticket=eyJ1IjoiMSJ9.sig', '/s/_bounce/return?ticket=[redacted]'],
    ['/s/_bounce?next=%2Fs%2Falice%2Fsecret', '/s/_bounce?next=[redacted]'],
    ['/api/v1/shares?limit=5&cursor=abc', '/api/v1/shares?limit=[redacted]&cursor=[redacted]'],
    ['/api/v1/files/3f7c', '/api/v1/files/3f7c'],
    ['/api/x?%3Cscript%3E=1', '/api/x?[redacted]=[redacted]'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
