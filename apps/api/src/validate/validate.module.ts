import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ValidateController } from './validate.controller.js';

/** Checks and normalizes a document without storing anything (REST and console, one controller). */
@Module({ imports: [AuthModule], controllers: [ValidateController] })
export class ValidateModule {}
