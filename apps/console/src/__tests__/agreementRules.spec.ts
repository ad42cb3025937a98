import { describe, expect, it } from 'vitest';
import { agreementProblem, emptyShareForm, toShareInput, validateShareForm, watermarkProblem } from '../composables/shareForm';
import { describePolicies } from '../composables/shares';

describe('agreementProblem', () => {
  it.each([
    ['', 'agreementForm.errEmpty'],
    [' \n\t', 'agreementForm.errEmpty'],
    ['x', null],
    ['x'.repeat(20_000), null],
    ['x'.repeat(20_001), 'agreementForm.errLength'],
    ['😀'.repeat(20_000), null],
  ])('%#: %j → %s', (text, key) => {
    expect(agreementProblem(text)?.key ?? null).toBe(key);
  });
});

describe('watermarkProblem', () => {
  it.each([
    ['{name} · {email} · {date} · {ip}', null],
    ['x'.repeat(80), null],
    ['x'.repeat(81), 'shareForm.errWatermark'],
    [`{email}${'y'.repeat(74)}`, 'shareForm.errWatermark'],
    ['line\nbreak', 'readerWatermark.errControl'],
    ['del\u007f', 'readerWatermark.errControl'],
  ])('%#: %j → %s', (text, key) => {
    expect(watermarkProblem(text)?.key ?? null).toBe(key);
  });
});

describe('the agreement in ShareInput', () => {
  it('is sent only while switched on, with requireName', () => {
    const on = { ...emptyShareForm(), agreementEnabled: true, agreementText: 'Terms', agreementRequireName: false };
    expect(toShareInput(on)).toEqual({ agreement: { text: 'Terms', requireName: false } });
    expect(toShareInput({ ...on, agreementEnabled: false })).toEqual({});
    expect(validateShareForm({ ...on, agreementText: '' }).agreementText).toEqual({ key: 'agreementForm.errEmpty' });
    expect(validateShareForm({ ...on, agreementEnabled: false, agreementText: '' }).agreementText).toBeNull();
  });

  it('appears among a share’s policies, after the password', () => {
    const lines = describePolicies({ hasPassword: true, oneTime: false, agreement: { requireName: false } }).map(
      (line) => line.key,
    );
    expect(lines).toEqual(['summary.anyone', 'summary.password', 'agreementForm.summary']);
  });
});
