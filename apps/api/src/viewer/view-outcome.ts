import type { ViewOutcome } from '../metrics/metrics.js';
import type { ViewResult } from './pages/view-result.js';

/**
 * A view's result as a metric: admitted, or refused with the gate's stop (`password`, `reveal`,
 * `scanning`, …; a database refusal by its outcome: `revoked`, `consumed`, `visitor_limit`, …).
 * Bounded labels only: never the share or the visitor.
 */
export function viewOutcomeOf(result: ViewResult): ViewOutcome {
  switch (result.kind) {
    case 'shown':
    case 'collection':
      return { admitted: true };
    case 'not-found':
      return { admitted: false, reason: 'not-found' };
    case 'stopped':
      return {
        admitted: false,
        reason: result.stop.kind === 'refused' ? result.stop.outcome.toLowerCase() : result.stop.kind,
      };
  }
}
