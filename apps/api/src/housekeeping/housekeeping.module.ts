import { Module } from '@nestjs/common';
import { Housekeeping } from './housekeeping.js';

/** Periodic deletion of expired and idle rows (worker processes). */
@Module({ providers: [Housekeeping] })
export class HousekeepingModule {}
