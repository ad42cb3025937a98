import { Module } from '@nestjs/common';
import { SharesModule } from '../shares/shares.module.js';
import { ConsoleSharesController } from './console-shares.controller.js';
import { ConsoleValidateController } from './console-validate.controller.js';
import { ShareVisitsService } from './share-visits.service.js';

/** Session-cookie routes the console needs where only a bearer-token REST route exists. */
@Module({
  imports: [SharesModule],
  controllers: [ConsoleSharesController, ConsoleValidateController],
  providers: [ShareVisitsService],
})
export class ConsoleApiModule {}
