import { describe, expect, it } from 'vitest';
import type { ValidateResult } from '../api/types';
import ValidateIssues from '../pages/validate/ValidateIssues.vue';
import { harness, mountWith } from './helpers';

const result: ValidateResult = {
  kind: 'HTML',
  ok: false,
  normalized: '<div>',
  issues: [
    { level: 'error', code: 'UNCLOSED_TAG', message: '<div> 没有闭合', params: { tag: 'div' }, line: 1, col: 1 },
    {
      level: 'warning',
      code: 'MORE_ISSUES',
      message: '另有 4 处同类问题未列出：重复的 id',
      params: { count: '4', code: 'DUPLICATE_ID' },
    },
  ],
};

function issuesIn(locale: 'en' | 'de' | 'zh') {
  const sut = mountWith(ValidateIssues, harness(locale), {
    props: { result, counts: { error: 1, warning: 1, info: 0 }, activeLine: null },
  });
  return sut.findAll('[data-test="validate-issue"]').map((issue) => issue.text());
}

describe('ValidateIssues', () => {
  it('words each issue from its code in the console language', () => {
    expect(issuesIn('en')).toEqual(['<div> is never closed.', '4 more not listed: duplicate ids.']);
    expect(issuesIn('de')).toEqual(['<div> wird nie geschlossen.', '4 weitere nicht aufgeführt: doppelte ids.']);
  });

  it("keeps the api's own words in the Chinese console", () => {
    expect(issuesIn('zh')).toEqual(['<div> 没有闭合', '另有 4 处同类问题未列出：重复的 id']);
  });
});
