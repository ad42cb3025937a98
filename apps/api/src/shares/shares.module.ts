import { Global, Module } from '@nestjs/common';
import { ConsoleSharesController } from './console-shares.controller.js';
import { SharesController } from './shares.controller.js';
import { SharesService } from './shares.service.js';
import { ShareVisitsService } from './share-visits.service.js';

/** Global so the upload path can create a share inside its own transaction. */
@Global()
@Module({
  controllers: [SharesController, ConsoleSharesController],
  providers: [SharesService, ShareVisitsService],
  exports: [SharesService],
})
export class SharesModule {}
