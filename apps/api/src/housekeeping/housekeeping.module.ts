import { Module } from '@nestjs/common';
import { ViewerModule } from '../viewer/viewer.module.js';
import { Housekeeping } from './housekeeping.js';

/** Periodic deletion of expired and idle rows (worker processes). */
@Module({ imports: [ViewerModule], providers: [Housekeeping] })
export class HousekeepingModule {}
