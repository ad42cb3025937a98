import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { EmailModule } from '../auth/email/email.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { AgreementAcceptancesRepository } from './gate/agreement-acceptances.repository.js';
import { DocumentCache } from './documents/document-cache.js';
import { FrameAdmissions } from './visit-log/frame-admissions.js';
import { VIEWER_GATE_PROVIDERS } from './gate/gate.js';
import { SectionReadsRepository } from './visit-log/section-reads.repository.js';
import { ShareViewRepository } from './share-view/share-view.repository.js';
import { ViewerAssets } from './pages/viewer-assets.js';
import { ViewerController } from './viewer.controller.js';
import { ViewerEmailCodeService } from './viewer-email-code.service.js';
import { ViewerFormsService } from './viewer-forms.service.js';
import { ViewerHttp } from './viewer-http.js';
import { ViewerIdentity } from './visitor/viewer-identity.js';
import { ViewerPresenter } from './pages/viewer-presenter.js';
import { VisitEngagement } from './visit-log/visit-engagement.js';
import { VisitLog } from './visit-log/visit-log.js';
import { VisitLogRepository } from './visit-log/visit-log.repository.js';
import { ViewerService } from './viewer.service.js';
import { ShareGateCache } from './gate/share-gate-cache.js';
import { VisitAdmissions } from './visit-log/visit-admissions.js';
import { CollectionPasses } from './collections/collection-passes.js';
import { CollectionRepository } from './collections/collection.repository.js';
import { CollectionViewService } from './collection-view.service.js';
import { DocumentReadsRepository } from './visit-log/document-reads.repository.js';

/**
 * The share viewer under /s/: the gate, the counted visit, the rendered document and the
 * viewer's own forms (password, reveal, report, sign-in, e-mail codes). Emits webhook events.
 */
@Module({
  imports: [AuthModule, EmailModule, NotificationsModule, RateLimitModule, WebhooksModule],
  controllers: [ViewerController],
  providers: [
    ShareViewRepository,
    AgreementAcceptancesRepository,
    VisitAdmissions,
    ShareGateCache,
    FrameAdmissions,
    DocumentCache,
    ViewerAssets,
    ViewerIdentity,
    ...VIEWER_GATE_PROVIDERS,
    ViewerService,
    ViewerPresenter,
    ViewerFormsService,
    ViewerEmailCodeService,
    ViewerHttp,
    VisitLogRepository,
    VisitLog,
    VisitEngagement,
    CollectionRepository,
    CollectionPasses,
    CollectionViewService,
    DocumentReadsRepository,
    SectionReadsRepository,
  ],
  // The maintenance sweep deletes expired frame-ticket records, and visits, document and section reads past
  // retention, through them; a share's analytics reads the sections of its documents through the cache and the
  // section reads.
  exports: [
    // Document requests' public pages are viewer pages: the same origin rules, headers, sign-in and words.
    ViewerHttp,
    ViewerPresenter,
    ViewerIdentity,
    ShareGateCache,
    ShareViewRepository,
    VisitLogRepository,
    DocumentReadsRepository,
    SectionReadsRepository,
    DocumentCache,
  ],
})
export class ViewerModule {}
