import type { ReportStatus } from '../../../api/types';

/** The badge colour of a report's state: open asks for attention, the outcomes say how severe. */
export const reportStatusClass: Record<ReportStatus, string> = {
  open: 'badge-warning',
  dismissed: 'badge-info',
  share_disabled: 'badge-danger',
  owner_disabled: 'badge-danger',
};
