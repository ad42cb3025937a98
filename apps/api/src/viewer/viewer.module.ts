import { Module } from '@nestjs/common';
import { DocumentCache } from './document-cache.js';
import { ShareViewRepository } from './share-view.repository.js';
import { ViewerAssets } from './viewer-assets.js';
import { ViewerController } from './viewer.controller.js';
import { ViewerEmailCodeService } from './viewer-email-code.service.js';
import { ViewerFormsService } from './viewer-forms.service.js';
import { ViewerHttp } from './viewer-http.js';
import { ViewerIdentity } from './viewer-identity.js';
import { ViewerService } from './viewer.service.js';
import { VisitAdmissions } from './visit-admissions.js';

@Module({
  controllers: [ViewerController],
  providers: [ShareViewRepository, VisitAdmissions, DocumentCache, ViewerAssets, ViewerIdentity, ViewerService, ViewerFormsService, ViewerEmailCodeService, ViewerHttp],
  // The maintenance sweep deletes expired frame-ticket records through it (deleteExpiredFrameTickets).
  exports: [ShareViewRepository],
})
export class ViewerModule {}
