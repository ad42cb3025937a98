import { Global, Module } from '@nestjs/common';
import { SharesController } from './shares.controller.js';
import { SharesService } from './shares.service.js';

/** Global so the upload path can create a share inside its own transaction. */
@Global()
@Module({
  controllers: [SharesController],
  providers: [SharesService],
  exports: [SharesService],
})
export class SharesModule {}
