import { describe, expect, it } from 'vitest';
import type { ViewedShare } from './share-view/share-view.repository.js';
import { viewOutcomeOf } from './view-outcome.js';

describe('viewOutcomeOf', () => {
  const share = {} as ViewedShare;

  it('names the stop of a refused view, and a database refusal by its outcome', () => {
    expect(viewOutcomeOf({ kind: 'not-found' })).toEqual({ admitted: false, reason: 'not-found' });
    expect(viewOutcomeOf({ kind: 'stopped', share, stop: { kind: 'password', wrong: true }, cookies: [] })).toEqual({
      admitted: false,
      reason: 'password',
    });
    expect(viewOutcomeOf({ kind: 'stopped', share, stop: { kind: 'refused', outcome: 'VISITOR_LIMIT' }, cookies: [] })).toEqual({
      admitted: false,
      reason: 'visitor_limit',
    });
  });
});
