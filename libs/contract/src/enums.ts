import { exactList } from './exact-list.js';
import type { components } from './schema.js';

type Schemas = components['schemas'];

export type ScanStatus = Schemas['ScanStatus'];
/** Antivirus states of a file: only CLEAN files are shown to visitors; INFECTED ones are quarantined. */
export const SCAN_STATUSES = exactList<ScanStatus>()(['PENDING', 'CLEAN', 'INFECTED', 'SCAN_ERROR']);

export type IssueLevel = Schemas['ValidationIssueDto']['level'];
/** Levels of a validation issue; a result is ok when none has level `error`. */
export const ISSUE_LEVELS = exactList<IssueLevel>()(['error', 'warning', 'info']);
