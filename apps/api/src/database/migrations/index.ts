import { InitialSchema1763700000000 } from './1763700000000-initial-schema.js';
import { ShareVisitAdmission1763700000400 } from './1763700000400-share-visit-admission.js';
import { ShareVisitBatches1763700000410 } from './1763700000410-share-visit-batches.js';
import { ServeLatestCleanVersion1763700000500 } from './1763700000500-serve-latest-clean-version.js';
import { FrameTickets1763700000600 } from './1763700000600-frame-tickets.js';
import { SignIn1763700000700 } from './1763700000700-sign-in.js';
import { TotpLastStep1763700000720 } from './1763700000720-totp-last-step.js';
import { AuditEvents1763700000800 } from './1763700000800-audit-events.js';
import { ListPageIndexes1763700000860 } from './1763700000860-list-page-indexes.js';
import { ShareVisitLog1763700000900 } from './1763700000900-share-visit-log.js';
import { SharePolicyChanges1763700000910 } from './1763700000910-share-policy-changes.js';
import { Administrators1763700001000 } from './1763700001000-administrators.js';
import { AbuseReports1763700001100 } from './1763700001100-abuse-reports.js';
import { Notifications1763700001200 } from './1763700001200-notifications.js';
import { IdentityChangeNotifications1763700001300 } from './1763700001300-identity-change-notifications.js';
import { NotificationMailFolding1763700001400 } from './1763700001400-notification-mail-folding.js';
import { RenderLogins1763700001500 } from './1763700001500-render-logins.js';
import { SetBasedAdmission1763700001600 } from './1763700001600-set-based-admission.js';
import { CollectionsAgreements1763700001700 } from './1763700001700-collections-agreements.js';
import { ShareGateChanges1763700001800 } from './1763700001800-share-gate-changes.js';
import { VisitLogWrites1763700001900 } from './1763700001900-visit-log-writes.js';
import { AdmissionStatements1763700001910 } from './1763700001910-admission-statements.js';
import { VisitLogIndexes1763700002000 } from './1763700002000-visit-log-indexes.js';
import { NewVisitorNumbering1763700002100 } from './1763700002100-new-visitor-numbering.js';
import { PasswordVersions1763700002200 } from './1763700002200-password-versions.js';
import { NfcNames1763700002300 } from './1763700002300-nfc-names.js';
import { DocumentRequests1763700002400 } from './1763700002400-document-requests.js';
import { Workspaces1763700002500 } from './1763700002500-workspaces.js';
import { NotificationRecipients1763700002600 } from './1763700002600-notification-recipients.js';

/** Every committed migration, in order. The schema changes only through these. */
export const migrations = [
  InitialSchema1763700000000,
  ShareVisitAdmission1763700000400,
  ShareVisitBatches1763700000410,
  ServeLatestCleanVersion1763700000500,
  FrameTickets1763700000600,
  SignIn1763700000700,
  TotpLastStep1763700000720,
  AuditEvents1763700000800,
  ListPageIndexes1763700000860,
  ShareVisitLog1763700000900,
  SharePolicyChanges1763700000910,
  Administrators1763700001000,
  AbuseReports1763700001100,
  Notifications1763700001200,
  IdentityChangeNotifications1763700001300,
  NotificationMailFolding1763700001400,
  RenderLogins1763700001500,
  SetBasedAdmission1763700001600,
  CollectionsAgreements1763700001700,
  ShareGateChanges1763700001800,
  VisitLogWrites1763700001900,
  AdmissionStatements1763700001910,
  VisitLogIndexes1763700002000,
  NewVisitorNumbering1763700002100,
  PasswordVersions1763700002200,
  NfcNames1763700002300,
  DocumentRequests1763700002400,
  Workspaces1763700002500,
  NotificationRecipients1763700002600,
];
